(define (domain fossil-excavation)
  (:requirements :strips :typing)
  (:types worker plot fossil depth crate)
  (:predicates
    (worker-at ?w - worker ?p - plot)
    (adjacent ?p1 - plot ?p2 - plot)
    (field-lab ?p - plot)
    (surveyed ?p - plot)
    (dug-to ?p - plot ?d - depth)
    (deeper ?upper - depth ?lower - depth)
    (layer-clear ?p - plot ?d - depth)
    (fossil-in ?f - fossil ?p - plot ?d - depth)
    (buried ?f - fossil)
    (exposed ?f - fossil)
    (brushed ?f - fossil)
    (crate-at ?c - crate ?p - plot)
    (crate-empty ?c - crate)
    (in-crate ?f - fossil ?c - crate)
    (catalogued ?f - fossil))

  (:action walk
    :parameters (?w - worker ?from - plot ?to - plot)
    :precondition (and (worker-at ?w ?from) (adjacent ?from ?to))
    :effect (and (worker-at ?w ?to)
                 (not (worker-at ?w ?from))))

  (:action survey
    :parameters (?w - worker ?p - plot)
    :precondition (worker-at ?w ?p)
    :effect (surveyed ?p))

  (:action dig
    :parameters (?w - worker ?p - plot ?d1 - depth ?d2 - depth)
    :precondition (and (worker-at ?w ?p) (surveyed ?p) (dug-to ?p ?d1)
                       (deeper ?d1 ?d2) (layer-clear ?p ?d1))
    :effect (and (dug-to ?p ?d2)
                 (not (dug-to ?p ?d1))))

  (:action uncover
    :parameters (?w - worker ?f - fossil ?p - plot ?d - depth)
    :precondition (and (worker-at ?w ?p) (dug-to ?p ?d) (fossil-in ?f ?p ?d) (buried ?f))
    :effect (and (exposed ?f)
                 (not (buried ?f))))

  (:action brush
    :parameters (?w - worker ?f - fossil ?p - plot ?d - depth)
    :precondition (and (worker-at ?w ?p) (fossil-in ?f ?p ?d) (exposed ?f))
    :effect (brushed ?f))

  (:action crate-fossil
    :parameters (?w - worker ?f - fossil ?p - plot ?d - depth ?c - crate)
    :precondition (and (worker-at ?w ?p) (fossil-in ?f ?p ?d) (exposed ?f) (brushed ?f)
                       (crate-at ?c ?p) (crate-empty ?c))
    :effect (and (in-crate ?f ?c)
                 (layer-clear ?p ?d)
                 (not (exposed ?f))
                 (not (crate-empty ?c))))

  (:action haul-crate
    :parameters (?w - worker ?c - crate ?from - plot ?to - plot)
    :precondition (and (worker-at ?w ?from) (crate-at ?c ?from) (adjacent ?from ?to))
    :effect (and (worker-at ?w ?to)
                 (crate-at ?c ?to)
                 (not (worker-at ?w ?from))
                 (not (crate-at ?c ?from))))

  (:action catalogue
    :parameters (?w - worker ?f - fossil ?c - crate ?p - plot)
    :precondition (and (worker-at ?w ?p) (field-lab ?p) (crate-at ?c ?p) (in-crate ?f ?c))
    :effect (catalogued ?f)))
