(define (domain treasure-hunt)
  (:requirements :strips :typing :negative-preconditions)
  (:types spot clue chest)
  (:predicates
    (hunter-at ?s - spot)
    (trail ?from - spot ?to - spot)
    (camp ?s - spot)
    (shovel-at ?s - spot)
    (has-shovel)
    (clue-at ?c - clue ?s - spot)
    (clue-inside ?c - clue ?ch - chest)
    (reveals ?c - clue ?s - spot)
    (known ?s - spot)
    (dug ?s - spot)
    (buried ?ch - chest ?s - spot)
    (carrying ?ch - chest)
    (hands-free)
    (stored ?ch - chest))

  (:action walk
    :parameters (?from - spot ?to - spot)
    :precondition (and (hunter-at ?from) (trail ?from ?to))
    :effect (and (hunter-at ?to)
                 (not (hunter-at ?from))))

  (:action take-shovel
    :parameters (?s - spot)
    :precondition (and (hunter-at ?s) (shovel-at ?s))
    :effect (and (has-shovel)
                 (not (shovel-at ?s))))

  (:action read-clue
    :parameters (?c - clue ?s - spot ?target - spot)
    :precondition (and (hunter-at ?s) (clue-at ?c ?s) (reveals ?c ?target))
    :effect (known ?target))

  (:action dig
    :parameters (?s - spot)
    :precondition (and (hunter-at ?s) (has-shovel) (known ?s) (not (dug ?s)))
    :effect (dug ?s))

  (:action lift-chest
    :parameters (?ch - chest ?s - spot)
    :precondition (and (hunter-at ?s) (dug ?s) (buried ?ch ?s) (hands-free))
    :effect (and (carrying ?ch)
                 (not (buried ?ch ?s))
                 (not (hands-free))))

  (:action deliver-chest
    :parameters (?ch - chest ?s - spot)
    :precondition (and (hunter-at ?s) (camp ?s) (carrying ?ch))
    :effect (and (stored ?ch)
                 (hands-free)
                 (not (carrying ?ch))))

  (:action open-chest
    :parameters (?ch - chest ?c - clue ?target - spot)
    :precondition (and (stored ?ch) (clue-inside ?c ?ch) (reveals ?c ?target))
    :effect (known ?target)))
