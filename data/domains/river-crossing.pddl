(define (domain river-crossing)
  (:requirements :strips :typing :negative-preconditions :disjunctive-preconditions
                 :universal-preconditions :equality)
  (:types bank item)
  (:predicates
    (farmer-at ?b - bank)
    (at ?i - item ?b - bank)
    (route ?from - bank ?to - bank)
    (eats ?hunter - item ?prey - item)
    (large-boat))

  (:action cross-alone
    :parameters (?from - bank ?to - bank)
    :precondition (and (farmer-at ?from) (route ?from ?to)
                       (forall (?x - item ?y - item)
                         (or (not (eats ?x ?y)) (not (at ?x ?from)) (not (at ?y ?from)))))
    :effect (and (farmer-at ?to)
                 (not (farmer-at ?from))))

  (:action cross-with-one
    :parameters (?i - item ?from - bank ?to - bank)
    :precondition (and (farmer-at ?from) (at ?i ?from) (route ?from ?to)
                       (forall (?x - item ?y - item)
                         (or (not (eats ?x ?y)) (not (at ?x ?from)) (not (at ?y ?from))
                             (= ?x ?i) (= ?y ?i))))
    :effect (and (farmer-at ?to)
                 (at ?i ?to)
                 (not (farmer-at ?from))
                 (not (at ?i ?from))))

  (:action cross-with-two
    :parameters (?i - item ?j - item ?from - bank ?to - bank)
    :precondition (and (large-boat) (not (= ?i ?j))
                       (farmer-at ?from) (at ?i ?from) (at ?j ?from) (route ?from ?to)
                       (not (eats ?i ?j)) (not (eats ?j ?i))
                       (forall (?x - item ?y - item)
                         (or (not (eats ?x ?y)) (not (at ?x ?from)) (not (at ?y ?from))
                             (= ?x ?i) (= ?y ?i) (= ?x ?j) (= ?y ?j))))
    :effect (and (farmer-at ?to)
                 (at ?i ?to)
                 (at ?j ?to)
                 (not (farmer-at ?from))
                 (not (at ?i ?from))
                 (not (at ?j ?from)))))
