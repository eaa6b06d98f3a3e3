(define (domain drone-delivery)
  (:requirements :strips :typing)
  (:types drone location package level)
  (:predicates
    (drone-at ?d - drone ?l - location)
    (package-at ?p - package ?l - location)
    (carrying ?d - drone ?p - package)
    (hold-empty ?d - drone)
    (air-link ?from - location ?to - location)
    (battery ?d - drone ?lv - level)
    (next-level ?lower - level ?higher - level)
    (charging-pad ?l - location))

  (:action fly
    :parameters (?d - drone ?from - location ?to - location ?high - level ?low - level)
    :precondition (and (drone-at ?d ?from) (air-link ?from ?to)
                       (battery ?d ?high) (next-level ?low ?high))
    :effect (and (drone-at ?d ?to)
                 (battery ?d ?low)
                 (not (drone-at ?d ?from))
                 (not (battery ?d ?high))))

  (:action pick-up
    :parameters (?d - drone ?p - package ?l - location)
    :precondition (and (drone-at ?d ?l) (package-at ?p ?l) (hold-empty ?d))
    :effect (and (carrying ?d ?p)
                 (not (package-at ?p ?l))
                 (not (hold-empty ?d))))

  (:action drop-off
    :parameters (?d - drone ?p - package ?l - location)
    :precondition (and (drone-at ?d ?l) (carrying ?d ?p))
    :effect (and (package-at ?p ?l)
                 (hold-empty ?d)
                 (not (carrying ?d ?p))))

  (:action recharge
    :parameters (?d - drone ?l - location ?cur - level ?up - level)
    :precondition (and (drone-at ?d ?l) (charging-pad ?l)
                       (battery ?d ?cur) (next-level ?cur ?up))
    :effect (and (battery ?d ?up)
                 (not (battery ?d ?cur)))))
