(define (domain pantry-restock)
  (:requirements :strips :typing :universal-preconditions)
  (:types place shelf unit kind count)
  (:predicates
    (stocker-at ?p - place)
    (link ?from - place ?to - place)
    (shelf-at ?s - shelf ?p - place)
    (shelf-for ?s - shelf ?k - kind)
    (kind-of ?u - unit ?k - kind)
    (unit-at ?u - unit ?p - place)
    (in-trolley ?u - unit)
    (trolley-load ?n - count)
    (count-step ?fewer - count ?more - count)
    (shelf-empty ?s - shelf)
    (shelf-stale ?s - shelf)
    (stocked ?s - shelf)
    (bag-empty)
    (bag-full)
    (bin-at ?p - place)
    (office-at ?p - place)
    (inventory-closed))

  (:action move
    :parameters (?from - place ?to - place)
    :precondition (and (stocker-at ?from) (link ?from ?to))
    :effect (and (stocker-at ?to)
                 (not (stocker-at ?from))))

  (:action load-unit
    :parameters (?u - unit ?p - place ?before - count ?after - count)
    :precondition (and (stocker-at ?p) (unit-at ?u ?p)
                       (trolley-load ?before) (count-step ?before ?after))
    :effect (and (in-trolley ?u)
                 (trolley-load ?after)
                 (not (trolley-load ?before))
                 (not (unit-at ?u ?p))))

  (:action clear-stale
    :parameters (?s - shelf ?p - place)
    :precondition (and (stocker-at ?p) (shelf-at ?s ?p) (shelf-stale ?s) (bag-empty))
    :effect (and (shelf-empty ?s)
                 (bag-full)
                 (not (bag-empty))
                 (not (shelf-stale ?s))))

  (:action dump-waste
    :parameters (?p - place)
    :precondition (and (stocker-at ?p) (bin-at ?p) (bag-full))
    :effect (and (bag-empty)
                 (not (bag-full))))

  (:action shelve-unit
    :parameters (?u - unit ?s - shelf ?k - kind ?p - place ?before - count ?after - count)
    :precondition (and (stocker-at ?p) (shelf-at ?s ?p) (in-trolley ?u)
                       (kind-of ?u ?k) (shelf-for ?s ?k) (shelf-empty ?s)
                       (trolley-load ?before) (count-step ?after ?before))
    :effect (and (stocked ?s)
                 (trolley-load ?after)
                 (not (trolley-load ?before))
                 (not (in-trolley ?u))
                 (not (shelf-empty ?s))))

  (:action close-inventory
    :parameters (?p - place)
    :precondition (and (stocker-at ?p) (office-at ?p) (bag-empty)
                       (forall (?s - shelf) (stocked ?s)))
    :effect (inventory-closed)))
