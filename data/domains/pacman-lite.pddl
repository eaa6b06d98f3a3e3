(define (domain pacman-lite)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell ghost pellet level)
  (:predicates
    (pac-at ?c - cell)
    (link ?from - cell ?to - cell)
    (ghost-at ?g - ghost ?c - cell)
    (haunted ?c - cell)
    (ghost-eaten ?g - ghost)
    (pellet-in ?p - pellet ?c - cell)
    (eaten ?p - pellet)
    (energizer-at ?c - cell)
    (power ?l - level)
    (one-less ?l - level ?lower - level)
    (zero ?l - level)
    (max-power ?l - level))

  (:action move
    :parameters (?from - cell ?to - cell ?z - level)
    :precondition (and (pac-at ?from) (link ?from ?to) (power ?z) (zero ?z)
                       (not (haunted ?to)))
    :effect (and (pac-at ?to)
                 (not (pac-at ?from))))

  (:action move-powered
    :parameters (?from - cell ?to - cell ?l - level ?lower - level)
    :precondition (and (pac-at ?from) (link ?from ?to) (power ?l) (one-less ?l ?lower)
                       (not (haunted ?to)))
    :effect (and (pac-at ?to)
                 (power ?lower)
                 (not (pac-at ?from))
                 (not (power ?l))))

  (:action eat-ghost
    :parameters (?g - ghost ?from - cell ?to - cell ?l - level ?lower - level)
    :precondition (and (pac-at ?from) (link ?from ?to) (ghost-at ?g ?to)
                       (power ?l) (one-less ?l ?lower))
    :effect (and (pac-at ?to)
                 (power ?lower)
                 (ghost-eaten ?g)
                 (not (pac-at ?from))
                 (not (power ?l))
                 (not (ghost-at ?g ?to))
                 (not (haunted ?to))))

  (:action eat-pellet
    :parameters (?p - pellet ?c - cell)
    :precondition (and (pac-at ?c) (pellet-in ?p ?c))
    :effect (and (eaten ?p)
                 (not (pellet-in ?p ?c))))

  (:action eat-energizer
    :parameters (?c - cell ?l - level ?max - level)
    :precondition (and (pac-at ?c) (energizer-at ?c) (power ?l) (max-power ?max))
    :effect (and (power ?max)
                 (not (power ?l))
                 (not (energizer-at ?c)))))
