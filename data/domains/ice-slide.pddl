(define (domain ice-slide)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell direction gem)
  (:predicates
    (at ?c - cell)
    (next ?from - cell ?to - cell ?d - direction)
    (edge ?c - cell ?d - direction)
    (rock ?c - cell)
    (icy ?c - cell)
    (still)
    (sliding ?d - direction)
    (gem-at ?g - gem ?c - cell)
    (collected ?g - gem))

  (:action walk
    :parameters (?from - cell ?to - cell ?d - direction)
    :precondition (and (still) (at ?from) (next ?from ?to ?d)
                       (not (rock ?to)) (not (icy ?to)))
    :effect (and (at ?to)
                 (not (at ?from))))

  (:action step-onto-ice
    :parameters (?from - cell ?to - cell ?d - direction)
    :precondition (and (still) (at ?from) (next ?from ?to ?d)
                       (not (rock ?to)) (icy ?to))
    :effect (and (at ?to)
                 (sliding ?d)
                 (not (at ?from))
                 (not (still))))

  (:action glide
    :parameters (?from - cell ?to - cell ?d - direction)
    :precondition (and (sliding ?d) (at ?from) (next ?from ?to ?d)
                       (not (rock ?to)) (icy ?to))
    :effect (and (at ?to)
                 (not (at ?from))))

  (:action glide-onto-ground
    :parameters (?from - cell ?to - cell ?d - direction)
    :precondition (and (sliding ?d) (at ?from) (next ?from ?to ?d)
                       (not (rock ?to)) (not (icy ?to)))
    :effect (and (at ?to)
                 (still)
                 (not (at ?from))
                 (not (sliding ?d))))

  (:action stop-at-rock
    :parameters (?c - cell ?r - cell ?d - direction)
    :precondition (and (sliding ?d) (at ?c) (next ?c ?r ?d) (rock ?r))
    :effect (and (still)
                 (not (sliding ?d))))

  (:action stop-at-wall
    :parameters (?c - cell ?d - direction)
    :precondition (and (sliding ?d) (at ?c) (edge ?c ?d))
    :effect (and (still)
                 (not (sliding ?d))))

  (:action collect
    :parameters (?g - gem ?c - cell)
    :precondition (and (still) (at ?c) (gem-at ?g ?c))
    :effect (and (collected ?g)
                 (not (gem-at ?g ?c)))))
