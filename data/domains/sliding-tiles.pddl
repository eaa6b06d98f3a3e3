(define (domain sliding-tiles)
  (:requirements :strips :typing :action-costs)
  (:types tile position)
  (:predicates
    (tile-at ?t - tile ?p - position)
    (blank-at ?p - position)
    (left-of ?a - position ?b - position)
    (above ?a - position ?b - position))
  (:functions (total-cost) - number)

  (:action slide-left
    :parameters (?t - tile ?from - position ?to - position)
    :precondition (and (tile-at ?t ?from) (blank-at ?to) (left-of ?to ?from))
    :effect (and (tile-at ?t ?to)
                 (blank-at ?from)
                 (not (tile-at ?t ?from))
                 (not (blank-at ?to))
                 (increase (total-cost) 1)))

  (:action slide-right
    :parameters (?t - tile ?from - position ?to - position)
    :precondition (and (tile-at ?t ?from) (blank-at ?to) (left-of ?from ?to))
    :effect (and (tile-at ?t ?to)
                 (blank-at ?from)
                 (not (tile-at ?t ?from))
                 (not (blank-at ?to))
                 (increase (total-cost) 1)))

  (:action slide-up
    :parameters (?t - tile ?from - position ?to - position)
    :precondition (and (tile-at ?t ?from) (blank-at ?to) (above ?to ?from))
    :effect (and (tile-at ?t ?to)
                 (blank-at ?from)
                 (not (tile-at ?t ?from))
                 (not (blank-at ?to))
                 (increase (total-cost) 1)))

  (:action slide-down
    :parameters (?t - tile ?from - position ?to - position)
    :precondition (and (tile-at ?t ?from) (blank-at ?to) (above ?from ?to))
    :effect (and (tile-at ?t ?to)
                 (blank-at ?from)
                 (not (tile-at ?t ?from))
                 (not (blank-at ?to))
                 (increase (total-cost) 1))))
