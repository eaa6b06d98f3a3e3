(define (domain maze-walker)
  (:requirements :strips)
  (:predicates
    (room ?r)
    (lamp ?x)
    (lever ?x)
    (walker-in ?r)
    (passage ?from ?to)
    (lit ?r)
    (dark ?r)
    (lies-in ?x ?r)
    (carrying ?x)
    (lever-in ?v ?r)
    (lever-opens ?v ?from ?to)
    (lever-pulled ?v))

  (:action walk
    :parameters (?from ?to)
    :precondition (and (room ?from) (room ?to) (walker-in ?from)
                       (passage ?from ?to) (lit ?to))
    :effect (and (walker-in ?to)
                 (not (walker-in ?from))))

  (:action walk-with-lamp
    :parameters (?from ?to ?l)
    :precondition (and (room ?from) (room ?to) (walker-in ?from)
                       (passage ?from ?to) (dark ?to) (lamp ?l) (carrying ?l))
    :effect (and (walker-in ?to)
                 (not (walker-in ?from))))

  (:action pick-up
    :parameters (?x ?r)
    :precondition (and (room ?r) (walker-in ?r) (lies-in ?x ?r))
    :effect (and (carrying ?x)
                 (not (lies-in ?x ?r))))

  (:action put-down
    :parameters (?x ?r)
    :precondition (and (room ?r) (walker-in ?r) (carrying ?x))
    :effect (and (lies-in ?x ?r)
                 (not (carrying ?x))))

  (:action pull-lever
    :parameters (?v ?r ?from ?to)
    :precondition (and (lever ?v) (room ?r) (walker-in ?r) (lever-in ?v ?r)
                       (lever-opens ?v ?from ?to))
    :effect (and (passage ?from ?to)
                 (lever-pulled ?v))))
