(define (domain bakery-ovens)
  (:requirements :strips :typing)
  (:types dough oven proofer temperature rack-count)
  (:predicates
    (unmixed ?d - dough)
    (mixed ?d - dough)
    (shaped ?d - dough)
    (proofing ?d - dough ?p - proofer)
    (proofer-free ?p - proofer)
    (proofed ?d - dough)
    (bake-temp ?d - dough ?t - temperature)
    (oven-temp ?o - oven ?t - temperature)
    (free-racks ?o - oven ?n - rack-count)
    (all-racks ?o - oven ?n - rack-count)
    (one-more ?n1 - rack-count ?n2 - rack-count)
    (in-oven ?d - dough ?o - oven)
    (baked ?d - dough)
    (cooling ?d - dough)
    (boxed ?d - dough))

  (:action mix-dough
    :parameters (?d - dough)
    :precondition (unmixed ?d)
    :effect (and (mixed ?d)
                 (not (unmixed ?d))))

  (:action shape
    :parameters (?d - dough)
    :precondition (mixed ?d)
    :effect (and (shaped ?d)
                 (not (mixed ?d))))

  (:action start-proof
    :parameters (?d - dough ?p - proofer)
    :precondition (and (shaped ?d) (proofer-free ?p))
    :effect (and (proofing ?d ?p)
                 (not (shaped ?d))
                 (not (proofer-free ?p))))

  (:action end-proof
    :parameters (?d - dough ?p - proofer)
    :precondition (proofing ?d ?p)
    :effect (and (proofed ?d)
                 (proofer-free ?p)
                 (not (proofing ?d ?p))))

  (:action set-temperature
    :parameters (?o - oven ?old - temperature ?new - temperature ?n - rack-count)
    :precondition (and (oven-temp ?o ?old) (free-racks ?o ?n) (all-racks ?o ?n))
    :effect (and (oven-temp ?o ?new)
                 (not (oven-temp ?o ?old))))

  (:action load-oven
    :parameters (?d - dough ?o - oven ?t - temperature ?n1 - rack-count ?n0 - rack-count)
    :precondition (and (proofed ?d) (bake-temp ?d ?t) (oven-temp ?o ?t)
                       (free-racks ?o ?n1) (one-more ?n0 ?n1))
    :effect (and (in-oven ?d ?o)
                 (free-racks ?o ?n0)
                 (not (free-racks ?o ?n1))
                 (not (proofed ?d))))

  (:action bake
    :parameters (?d - dough ?o - oven ?t - temperature)
    :precondition (and (in-oven ?d ?o) (bake-temp ?d ?t) (oven-temp ?o ?t))
    :effect (baked ?d))

  (:action unload-oven
    :parameters (?d - dough ?o - oven ?n0 - rack-count ?n1 - rack-count)
    :precondition (and (in-oven ?d ?o) (baked ?d) (free-racks ?o ?n0) (one-more ?n0 ?n1))
    :effect (and (cooling ?d)
                 (free-racks ?o ?n1)
                 (not (free-racks ?o ?n0))
                 (not (in-oven ?d ?o))))

  (:action box
    :parameters (?d - dough)
    :precondition (cooling ?d)
    :effect (and (boxed ?d)
                 (not (cooling ?d)))))
