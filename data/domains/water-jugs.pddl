(define (domain water-jugs)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types jug level)
  (:constants l0 - level)
  (:predicates
    (contains ?j - jug ?l - level)
    (capacity ?j - jug ?l - level)
    (one-more ?l - level ?higher - level)
    (idle)
    (pouring ?from - jug ?to - jug))

  (:action fill
    :parameters (?j - jug ?l - level ?cap - level)
    :precondition (and (idle) (contains ?j ?l) (capacity ?j ?cap) (not (= ?l ?cap)))
    :effect (and (contains ?j ?cap)
                 (not (contains ?j ?l))))

  (:action empty
    :parameters (?j - jug ?l - level)
    :precondition (and (idle) (contains ?j ?l) (not (= ?l l0)))
    :effect (and (contains ?j l0)
                 (not (contains ?j ?l))))

  (:action start-pour
    :parameters (?from - jug ?to - jug)
    :precondition (and (idle) (not (= ?from ?to)))
    :effect (and (pouring ?from ?to)
                 (not (idle))))

  (:action pour-unit
    :parameters (?from - jug ?to - jug ?fl - level ?flower - level ?tl - level ?thigher - level)
    :precondition (and (pouring ?from ?to)
                       (contains ?from ?fl) (one-more ?flower ?fl)
                       (contains ?to ?tl) (one-more ?tl ?thigher)
                       (not (capacity ?to ?tl)))
    :effect (and (contains ?from ?flower)
                 (contains ?to ?thigher)
                 (not (contains ?from ?fl))
                 (not (contains ?to ?tl))))

  (:action stop-source-empty
    :parameters (?from - jug ?to - jug)
    :precondition (and (pouring ?from ?to) (contains ?from l0))
    :effect (and (idle)
                 (not (pouring ?from ?to))))

  (:action stop-target-full
    :parameters (?from - jug ?to - jug ?cap - level)
    :precondition (and (pouring ?from ?to) (contains ?to ?cap) (capacity ?to ?cap))
    :effect (and (idle)
                 (not (pouring ?from ?to)))))
