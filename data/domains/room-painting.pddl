(define (domain room-painting)
  (:requirements :strips :typing :disjunctive-preconditions)
  (:types room wall colour roller)
  (:predicates
    (painter-in ?r - room)
    (doorway ?from - room ?to - room)
    (wall-in ?w - wall ?r - room)
    (wall-colour ?w - wall ?c - colour)
    (primed ?w - wall)
    (light ?c - colour)
    (primer ?c - colour)
    (topcoat ?c - colour)
    (taped ?r - room)
    (no-trim ?r - room)
    (paint-in ?c - colour ?r - room)
    (sink-in ?r - room)
    (bucket-in ?r - room)
    (roller-clean ?ro - roller)
    (roller-has ?ro - roller ?c - colour))

  (:action walk
    :parameters (?from - room ?to - room)
    :precondition (and (painter-in ?from) (doorway ?from ?to))
    :effect (and (painter-in ?to)
                 (not (painter-in ?from))))

  (:action tape-trim
    :parameters (?r - room)
    :precondition (painter-in ?r)
    :effect (taped ?r))

  (:action load-roller
    :parameters (?ro - roller ?c - colour ?r - room)
    :precondition (and (painter-in ?r) (paint-in ?c ?r) (roller-clean ?ro))
    :effect (and (roller-has ?ro ?c)
                 (not (roller-clean ?ro))))

  (:action wash-roller
    :parameters (?ro - roller ?c - colour ?r - room)
    :precondition (and (painter-in ?r) (roller-has ?ro ?c)
                       (or (sink-in ?r) (bucket-in ?r)))
    :effect (and (roller-clean ?ro)
                 (not (roller-has ?ro ?c))))

  (:action prime-wall
    :parameters (?w - wall ?r - room ?ro - roller ?p - colour ?old - colour)
    :precondition (and (painter-in ?r) (wall-in ?w ?r) (roller-has ?ro ?p) (primer ?p)
                       (wall-colour ?w ?old)
                       (or (taped ?r) (no-trim ?r)))
    :effect (and (not (wall-colour ?w ?old))
                 (wall-colour ?w ?p)
                 (primed ?w)))

  (:action paint-wall
    :parameters (?w - wall ?r - room ?ro - roller ?old - colour ?new - colour)
    :precondition (and (painter-in ?r) (wall-in ?w ?r) (roller-has ?ro ?new) (topcoat ?new)
                       (wall-colour ?w ?old)
                       (or (taped ?r) (no-trim ?r))
                       (or (primed ?w) (light ?old)))
    :effect (and (not (wall-colour ?w ?old))
                 (not (primed ?w))
                 (wall-colour ?w ?new))))
