(define (domain laundry)
  (:requirements :strips :typing :negative-preconditions)
  (:types garment machine detergent-pod rack storage - object
          washer dryer - machine)
  (:predicates
    (dirty ?g - garment)
    (wet ?g - garment)
    (folded ?g - garment)
    (delicate ?g - garment)
    (in-basket ?g - garment)
    (in-machine ?g - garment ?m - machine)
    (occupied ?m - machine)
    (pod-available ?d - detergent-pod)
    (on-rack ?g - garment ?r - rack)
    (belongs-in ?g - garment ?s - storage)
    (stored ?g - garment ?s - storage))

  (:action load-washer
    :parameters (?g - garment ?w - washer)
    :precondition (and (in-basket ?g) (dirty ?g) (not (occupied ?w)))
    :effect (and (in-machine ?g ?w)
                 (occupied ?w)
                 (not (in-basket ?g))))

  (:action run-wash
    :parameters (?g - garment ?w - washer ?d - detergent-pod)
    :precondition (and (in-machine ?g ?w) (dirty ?g) (pod-available ?d))
    :effect (and (wet ?g)
                 (not (dirty ?g))
                 (not (pod-available ?d))))

  (:action load-dryer
    :parameters (?g - garment ?dr - dryer)
    :precondition (and (in-basket ?g) (wet ?g) (not (delicate ?g)) (not (occupied ?dr)))
    :effect (and (in-machine ?g ?dr)
                 (occupied ?dr)
                 (not (in-basket ?g))))

  (:action run-dryer
    :parameters (?g - garment ?dr - dryer)
    :precondition (and (in-machine ?g ?dr) (wet ?g))
    :effect (not (wet ?g)))

  (:action unload-machine
    :parameters (?g - garment ?m - machine)
    :precondition (in-machine ?g ?m)
    :effect (and (in-basket ?g)
                 (not (in-machine ?g ?m))
                 (not (occupied ?m))))

  (:action hang-on-rack
    :parameters (?g - garment ?r - rack)
    :precondition (and (in-basket ?g) (wet ?g))
    :effect (and (on-rack ?g ?r)
                 (not (in-basket ?g))))

  (:action take-off-rack
    :parameters (?g - garment ?r - rack)
    :precondition (on-rack ?g ?r)
    :effect (and (in-basket ?g)
                 (not (on-rack ?g ?r))
                 (not (wet ?g))))

  (:action fold
    :parameters (?g - garment)
    :precondition (and (in-basket ?g) (not (dirty ?g)) (not (wet ?g)) (not (folded ?g)))
    :effect (folded ?g))

  (:action put-away
    :parameters (?g - garment ?s - storage)
    :precondition (and (in-basket ?g) (folded ?g) (belongs-in ?g ?s))
    :effect (and (stored ?g ?s)
                 (not (in-basket ?g)))))
