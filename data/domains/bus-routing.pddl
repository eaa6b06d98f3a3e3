(define (domain bus-routing)
  (:requirements :strips :typing)
  (:types bus stop passenger seat-count)
  (:predicates
    (bus-at ?b - bus ?s - stop)
    (route-next ?b - bus ?from - stop ?to - stop)
    (passenger-at ?p - passenger ?s - stop)
    (on-bus ?p - passenger ?b - bus)
    (free-seats ?b - bus ?n - seat-count)
    (one-more ?n - seat-count ?m - seat-count))

  (:action drive
    :parameters (?b - bus ?from - stop ?to - stop)
    :precondition (and (bus-at ?b ?from) (route-next ?b ?from ?to))
    :effect (and (bus-at ?b ?to)
                 (not (bus-at ?b ?from))))

  (:action board
    :parameters (?p - passenger ?b - bus ?s - stop ?before - seat-count ?after - seat-count)
    :precondition (and (passenger-at ?p ?s) (bus-at ?b ?s)
                       (free-seats ?b ?before) (one-more ?after ?before))
    :effect (and (on-bus ?p ?b)
                 (free-seats ?b ?after)
                 (not (passenger-at ?p ?s))
                 (not (free-seats ?b ?before))))

  (:action alight
    :parameters (?p - passenger ?b - bus ?s - stop ?before - seat-count ?after - seat-count)
    :precondition (and (on-bus ?p ?b) (bus-at ?b ?s)
                       (free-seats ?b ?before) (one-more ?before ?after))
    :effect (and (passenger-at ?p ?s)
                 (free-seats ?b ?after)
                 (not (on-bus ?p ?b))
                 (not (free-seats ?b ?before)))))
