(define (domain plant-watering)
  (:requirements :strips :typing :action-costs)
  (:types spot plant barrel level)
  (:predicates
    (gardener-at ?s - spot)
    (path ?from - spot ?to - spot)
    (plant-at ?p - plant ?s - spot)
    (tap-at ?s - spot)
    (barrel-at ?b - barrel ?s - spot)
    (barrel-level ?b - barrel ?l - level)
    (can-level ?l - level)
    (level-step ?lower - level ?higher - level)
    (needs ?p - plant ?l - level))
  (:functions (total-cost) - number)

  (:action walk
    :parameters (?from - spot ?to - spot)
    :precondition (and (gardener-at ?from) (path ?from ?to))
    :effect (and (gardener-at ?to)
                 (not (gardener-at ?from))
                 (increase (total-cost) 2)))

  (:action fill-at-tap
    :parameters (?s - spot ?before - level ?after - level)
    :precondition (and (gardener-at ?s) (tap-at ?s)
                       (can-level ?before) (level-step ?before ?after))
    :effect (and (can-level ?after)
                 (not (can-level ?before))
                 (increase (total-cost) 1)))

  (:action fill-from-barrel
    :parameters (?b - barrel ?s - spot ?can-before - level ?can-after - level
                 ?barrel-before - level ?barrel-after - level)
    :precondition (and (gardener-at ?s) (barrel-at ?b ?s)
                       (can-level ?can-before) (level-step ?can-before ?can-after)
                       (barrel-level ?b ?barrel-before)
                       (level-step ?barrel-after ?barrel-before))
    :effect (and (can-level ?can-after)
                 (not (can-level ?can-before))
                 (barrel-level ?b ?barrel-after)
                 (not (barrel-level ?b ?barrel-before))
                 (increase (total-cost) 1)))

  (:action pour
    :parameters (?p - plant ?s - spot ?can-before - level ?can-after - level
                 ?need-before - level ?need-after - level)
    :precondition (and (gardener-at ?s) (plant-at ?p ?s)
                       (can-level ?can-before) (level-step ?can-after ?can-before)
                       (needs ?p ?need-before) (level-step ?need-after ?need-before))
    :effect (and (can-level ?can-after)
                 (not (can-level ?can-before))
                 (needs ?p ?need-after)
                 (not (needs ?p ?need-before))
                 (increase (total-cost) 1))))
