(define (domain river-crossing)
  (:requirements :strips :negative-preconditions :disjunctive-preconditions
                 :universal-preconditions :equality)
  (:constants near-bank far-bank)
  (:predicates
    (farmer-at ?b)
    (at ?i ?b)
    (route ?from ?to)
    (eats ?hunter ?prey)
    (large-boat))

  (:action cross-alone
    :parameters (?from ?to)
    :precondition (and (farmer-at ?from) (route ?from ?to)
                       (forall (?x ?y)
                         (or (not (eats ?x ?y)) (not (at ?x ?from)) (not (at ?y ?from)))))
    :effect (and (farmer-at ?to)
                 (not (farmer-at ?from))))

  (:action cross-with-one
    :parameters (?i ?from ?to)
    :precondition (and (farmer-at ?from) (at ?i ?from) (route ?from ?to)
                       (forall (?x ?y)
                         (or (not (eats ?x ?y)) (not (at ?x ?from)) (not (at ?y ?from))
                             (= ?x ?i) (= ?y ?i))))
    :effect (and (farmer-at ?to)
                 (at ?i ?to)
                 (not (farmer-at ?from))
                 (not (at ?i ?from))))

  (:action cross-with-two
    :parameters (?i ?j ?from ?to)
    :precondition (and (large-boat) (not (= ?i ?j))
                       (farmer-at ?from) (at ?i ?from) (at ?j ?from) (route ?from ?to)
                       (not (eats ?i ?j)) (not (eats ?j ?i))
                       (forall (?x ?y)
                         (or (not (eats ?x ?y)) (not (at ?x ?from)) (not (at ?y ?from))
                             (= ?x ?i) (= ?y ?i) (= ?x ?j) (= ?y ?j))))
    :effect (and (farmer-at ?to)
                 (at ?i ?to)
                 (at ?j ?to)
                 (not (farmer-at ?from))
                 (not (at ?i ?from))
                 (not (at ?j ?from)))))
