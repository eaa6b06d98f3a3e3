(define (domain floor-tiling)
  (:requirements :strips :typing :negative-preconditions)
  (:types robot tile colour level)
  (:predicates
    (robot-on ?r - robot ?t - tile)
    (adjacent ?a - tile ?b - tile)
    (occupied ?t - tile)
    (unpainted ?t - tile)
    (painted ?t - tile ?c - colour)
    (depot ?t - tile)
    (brush-colour ?r - robot ?c - colour)
    (paint-left ?r - robot ?l - level)
    (one-less ?l - level ?lower - level)
    (full-level ?l - level))

  (:action move
    :parameters (?r - robot ?from - tile ?to - tile)
    :precondition (and (robot-on ?r ?from) (adjacent ?from ?to)
                       (unpainted ?to) (not (occupied ?to)))
    :effect (and (robot-on ?r ?to)
                 (occupied ?to)
                 (not (robot-on ?r ?from))
                 (not (occupied ?from))))

  (:action paint
    :parameters (?r - robot ?at - tile ?target - tile ?c - colour ?l - level ?lower - level)
    :precondition (and (robot-on ?r ?at) (adjacent ?at ?target)
                       (unpainted ?target) (not (occupied ?target))
                       (brush-colour ?r ?c) (paint-left ?r ?l) (one-less ?l ?lower))
    :effect (and (painted ?target ?c)
                 (paint-left ?r ?lower)
                 (not (unpainted ?target))
                 (not (paint-left ?r ?l))))

  (:action refill
    :parameters (?r - robot ?t - tile ?l - level ?full - level)
    :precondition (and (robot-on ?r ?t) (depot ?t) (paint-left ?r ?l) (full-level ?full))
    :effect (and (not (paint-left ?r ?l))
                 (paint-left ?r ?full)))

  (:action change-colour
    :parameters (?r - robot ?t - tile ?old - colour ?new - colour)
    :precondition (and (robot-on ?r ?t) (depot ?t) (brush-colour ?r ?old))
    :effect (and (not (brush-colour ?r ?old))
                 (brush-colour ?r ?new))))
