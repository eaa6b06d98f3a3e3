(define (domain evacuation)
  (:requirements :strips :typing :negative-preconditions :universal-preconditions)
  (:types person vehicle area)
  (:predicates
    (person-at ?p - person ?a - area)
    (vehicle-at ?v - vehicle ?a - area)
    (in-vehicle ?p - person ?v - vehicle)
    (can-drive ?p - person)
    (road ?from - area ?to - area)
    (footpath ?from - area ?to - area)
    (danger-zone ?a - area)
    (shelter ?a - area)
    (closed ?a - area)
    (at-risk ?p - person ?a - area)
    (registered ?p - person))

  (:action walk
    :parameters (?p - person ?from - area ?to - area)
    :precondition (and (person-at ?p ?from) (footpath ?from ?to) (not (danger-zone ?to)))
    :effect (and (person-at ?p ?to)
                 (not (person-at ?p ?from))))

  (:action board
    :parameters (?p - person ?v - vehicle ?a - area)
    :precondition (and (person-at ?p ?a) (vehicle-at ?v ?a))
    :effect (and (in-vehicle ?p ?v)
                 (not (person-at ?p ?a))))

  (:action get-out
    :parameters (?p - person ?v - vehicle ?a - area)
    :precondition (and (in-vehicle ?p ?v) (vehicle-at ?v ?a) (not (danger-zone ?a)))
    :effect (and (person-at ?p ?a)
                 (not (in-vehicle ?p ?v))))

  (:action drive
    :parameters (?v - vehicle ?d - person ?from - area ?to - area)
    :precondition (and (vehicle-at ?v ?from) (in-vehicle ?d ?v) (can-drive ?d)
                       (road ?from ?to) (not (closed ?to)))
    :effect (and (vehicle-at ?v ?to)
                 (not (vehicle-at ?v ?from))))

  (:action register
    :parameters (?p - person ?a - area ?home - area)
    :precondition (and (person-at ?p ?a) (shelter ?a) (at-risk ?p ?home))
    :effect (and (registered ?p)
                 (not (at-risk ?p ?home))))

  (:action close-zone
    :parameters (?a - area)
    :precondition (and (danger-zone ?a) (not (closed ?a))
                       (forall (?p - person) (not (at-risk ?p ?a)))
                       (forall (?v - vehicle) (not (vehicle-at ?v ?a))))
    :effect (closed ?a)))
