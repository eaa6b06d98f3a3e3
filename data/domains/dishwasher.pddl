(define (domain dishwasher)
  (:requirements :strips :typing :conditional-effects)
  (:types dish rack machine tablet slots)
  (:predicates
    (crusted ?d - dish)
    (soiled ?d - dish)
    (clean ?d - dish)
    (on-counter ?d - dish)
    (in-cupboard ?d - dish)
    (in-rack ?d - dish ?r - rack)
    (fits ?d - dish ?r - rack)
    (rack-of ?r - rack ?m - machine)
    (free-slots ?r - rack ?n - slots)
    (slot-step ?fewer - slots ?more - slots)
    (door-open ?m - machine)
    (door-closed ?m - machine)
    (tablet-unused ?t - tablet)
    (tablet-loaded ?m - machine))

  (:action open-door
    :parameters (?m - machine)
    :precondition (door-closed ?m)
    :effect (and (door-open ?m)
                 (not (door-closed ?m))))

  (:action close-door
    :parameters (?m - machine)
    :precondition (door-open ?m)
    :effect (and (door-closed ?m)
                 (not (door-open ?m))))

  (:action load-dish
    :parameters (?d - dish ?r - rack ?m - machine ?before - slots ?after - slots)
    :precondition (and (on-counter ?d) (fits ?d ?r) (rack-of ?r ?m) (door-open ?m)
                       (free-slots ?r ?before) (slot-step ?after ?before))
    :effect (and (in-rack ?d ?r)
                 (free-slots ?r ?after)
                 (not (free-slots ?r ?before))
                 (not (on-counter ?d))))

  (:action unload-dish
    :parameters (?d - dish ?r - rack ?m - machine ?before - slots ?after - slots)
    :precondition (and (in-rack ?d ?r) (rack-of ?r ?m) (door-open ?m)
                       (free-slots ?r ?before) (slot-step ?before ?after))
    :effect (and (on-counter ?d)
                 (free-slots ?r ?after)
                 (not (free-slots ?r ?before))
                 (not (in-rack ?d ?r))))

  (:action insert-tablet
    :parameters (?t - tablet ?m - machine)
    :precondition (and (tablet-unused ?t) (door-open ?m))
    :effect (and (tablet-loaded ?m)
                 (not (tablet-unused ?t))))

  (:action run-cycle
    :parameters (?m - machine)
    :precondition (and (door-closed ?m) (tablet-loaded ?m))
    :effect (and (not (tablet-loaded ?m))
                 (forall (?d - dish ?r - rack)
                   (when (and (in-rack ?d ?r) (rack-of ?r ?m) (crusted ?d))
                         (and (soiled ?d) (not (crusted ?d)))))
                 (forall (?d - dish ?r - rack)
                   (when (and (in-rack ?d ?r) (rack-of ?r ?m) (soiled ?d))
                         (and (clean ?d) (not (soiled ?d)))))))

  (:action put-in-cupboard
    :parameters (?d - dish)
    :precondition (and (on-counter ?d) (clean ?d))
    :effect (and (in-cupboard ?d)
                 (not (on-counter ?d)))))
