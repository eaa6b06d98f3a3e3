(define (domain tidy-room)
  (:requirements :strips :typing)
  (:types spot hand item container - object
          toy garment - item
          toybox wardrobe hamper - container)
  (:predicates
    (robot-at ?s - spot)
    (adjacent ?from - spot ?to - spot)
    (item-at ?i - item ?s - spot)
    (holding ?h - hand ?i - item)
    (hand-free ?h - hand)
    (container-at ?c - container ?s - spot)
    (open ?c - container)
    (closed ?c - container)
    (stored ?i - item ?c - container)
    (clean ?g - garment)
    (dirty ?g - garment))

  (:action move
    :parameters (?from - spot ?to - spot)
    :precondition (and (robot-at ?from) (adjacent ?from ?to))
    :effect (and (robot-at ?to)
                 (not (robot-at ?from))))

  (:action pick-up
    :parameters (?i - item ?h - hand ?s - spot)
    :precondition (and (robot-at ?s) (item-at ?i ?s) (hand-free ?h))
    :effect (and (holding ?h ?i)
                 (not (item-at ?i ?s))
                 (not (hand-free ?h))))

  (:action open-container
    :parameters (?c - container ?h - hand ?s - spot)
    :precondition (and (robot-at ?s) (container-at ?c ?s) (closed ?c) (hand-free ?h))
    :effect (and (open ?c)
                 (not (closed ?c))))

  (:action close-container
    :parameters (?c - container ?h - hand ?s - spot)
    :precondition (and (robot-at ?s) (container-at ?c ?s) (open ?c) (hand-free ?h))
    :effect (and (closed ?c)
                 (not (open ?c))))

  (:action put-toy-away
    :parameters (?t - toy ?h - hand ?b - toybox ?s - spot)
    :precondition (and (robot-at ?s) (container-at ?b ?s) (open ?b) (holding ?h ?t))
    :effect (and (stored ?t ?b)
                 (hand-free ?h)
                 (not (holding ?h ?t))))

  (:action hang-up
    :parameters (?g - garment ?h - hand ?w - wardrobe ?s - spot)
    :precondition (and (robot-at ?s) (container-at ?w ?s) (open ?w) (holding ?h ?g) (clean ?g))
    :effect (and (stored ?g ?w)
                 (hand-free ?h)
                 (not (holding ?h ?g))))

  (:action drop-in-hamper
    :parameters (?g - garment ?h - hand ?hp - hamper ?s - spot)
    :precondition (and (robot-at ?s) (container-at ?hp ?s) (open ?hp) (holding ?h ?g) (dirty ?g))
    :effect (and (stored ?g ?hp)
                 (hand-free ?h)
                 (not (holding ?h ?g)))))
