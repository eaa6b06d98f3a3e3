(define (domain fire-fighting)
  (:requirements :strips :typing)
  (:types location truck level)
  (:predicates
    (road ?a - location ?b - location)
    (truck-at ?t - truck ?l - location)
    (water ?t - truck ?w - level)
    (tank-capacity ?t - truck ?w - level)
    (hydrant ?l - location)
    (intensity ?l - location ?f - level)
    (next ?lower - level ?higher - level)
    (zero ?z - level)
    (water-fire ?l - location)
    (chemical-fire ?l - location)
    (foam-depot ?l - location)
    (has-foam ?t - truck)
    (extinguished ?l - location))

  (:action drive
    :parameters (?t - truck ?from - location ?to - location)
    :precondition (and (truck-at ?t ?from)
                       (road ?from ?to))
    :effect (and (truck-at ?t ?to)
                 (not (truck-at ?t ?from))))

  (:action refill
    :parameters (?t - truck ?l - location ?w - level ?full - level)
    :precondition (and (truck-at ?t ?l)
                       (hydrant ?l)
                       (water ?t ?w)
                       (tank-capacity ?t ?full))
    :effect (and (not (water ?t ?w))
                 (water ?t ?full)))

  (:action spray-water
    :parameters (?t - truck ?l - location ?w - level ?w1 - level ?f - level ?f1 - level)
    :precondition (and (truck-at ?t ?l)
                       (water-fire ?l)
                       (water ?t ?w)
                       (next ?w1 ?w)
                       (intensity ?l ?f)
                       (next ?f1 ?f))
    :effect (and (not (water ?t ?w))
                 (water ?t ?w1)
                 (not (intensity ?l ?f))
                 (intensity ?l ?f1)))

  (:action load-foam
    :parameters (?t - truck ?l - location)
    :precondition (and (truck-at ?t ?l)
                       (foam-depot ?l))
    :effect (has-foam ?t))

  (:action spray-foam
    :parameters (?t - truck ?l - location ?f - level ?f1 - level)
    :precondition (and (truck-at ?t ?l)
                       (chemical-fire ?l)
                       (has-foam ?t)
                       (intensity ?l ?f)
                       (next ?f1 ?f))
    :effect (and (not (has-foam ?t))
                 (not (intensity ?l ?f))
                 (intensity ?l ?f1)))

  (:action declare-out
    :parameters (?l - location ?z - level)
    :precondition (and (intensity ?l ?z)
                       (zero ?z))
    :effect (extinguished ?l)))
