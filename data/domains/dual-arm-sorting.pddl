(define (domain dual-arm-sorting)
  (:requirements :strips :typing :equality)
  (:types arm zone item)
  (:predicates
    (arm-at ?a - arm ?z - zone)
    (reaches ?a - arm ?z - zone)
    (adjacent ?z1 - zone ?z2 - zone)
    (item-at ?o - item ?z - zone)
    (holding ?a - arm ?o - item)
    (arm-free ?a - arm)
    (can-grip ?a - arm ?o - item))

  (:action move-arm
    :parameters (?a - arm ?other - arm ?from - zone ?to - zone ?other-zone - zone)
    :precondition (and (not (= ?a ?other))
                       (arm-at ?a ?from) (adjacent ?from ?to) (reaches ?a ?to)
                       (arm-at ?other ?other-zone) (not (= ?to ?other-zone)))
    :effect (and (arm-at ?a ?to)
                 (not (arm-at ?a ?from))))

  (:action pick
    :parameters (?a - arm ?o - item ?z - zone)
    :precondition (and (arm-at ?a ?z) (item-at ?o ?z) (arm-free ?a) (can-grip ?a ?o))
    :effect (and (holding ?a ?o)
                 (not (item-at ?o ?z))
                 (not (arm-free ?a))))

  (:action place
    :parameters (?a - arm ?o - item ?z - zone)
    :precondition (and (arm-at ?a ?z) (holding ?a ?o))
    :effect (and (item-at ?o ?z)
                 (arm-free ?a)
                 (not (holding ?a ?o))))

  (:action hand-over
    :parameters (?o - item ?giver - arm ?taker - arm ?gz - zone ?tz - zone)
    :precondition (and (not (= ?giver ?taker))
                       (holding ?giver ?o) (arm-free ?taker) (can-grip ?taker ?o)
                       (arm-at ?giver ?gz) (arm-at ?taker ?tz) (adjacent ?gz ?tz))
    :effect (and (holding ?taker ?o)
                 (arm-free ?giver)
                 (not (holding ?giver ?o))
                 (not (arm-free ?taker)))))
