(define (domain grid-keys)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell key shape)
  (:predicates
    (robot-at ?c - cell)
    (adjacent ?a - cell ?b - cell)
    (locked ?c - cell)
    (lock-shape ?c - cell ?s - shape)
    (key-shape ?k - key ?s - shape)
    (key-at ?k - key ?c - cell)
    (holding ?k - key)
    (hand-free))

  (:action move
    :parameters (?from - cell ?to - cell)
    :precondition (and (robot-at ?from) (adjacent ?from ?to) (not (locked ?to)))
    :effect (and (robot-at ?to)
                 (not (robot-at ?from))))

  (:action pick-up
    :parameters (?k - key ?c - cell)
    :precondition (and (robot-at ?c) (key-at ?k ?c) (hand-free))
    :effect (and (holding ?k)
                 (not (key-at ?k ?c))
                 (not (hand-free))))

  (:action put-down
    :parameters (?k - key ?c - cell)
    :precondition (and (robot-at ?c) (holding ?k))
    :effect (and (key-at ?k ?c)
                 (hand-free)
                 (not (holding ?k))))

  (:action swap-keys
    :parameters (?old - key ?new - key ?c - cell)
    :precondition (and (robot-at ?c) (holding ?old) (key-at ?new ?c))
    :effect (and (holding ?new)
                 (key-at ?old ?c)
                 (not (holding ?old))
                 (not (key-at ?new ?c))))

  (:action unlock
    :parameters (?cur - cell ?target - cell ?k - key ?s - shape)
    :precondition (and (robot-at ?cur) (adjacent ?cur ?target) (locked ?target)
                       (lock-shape ?target ?s) (key-shape ?k ?s) (holding ?k))
    :effect (not (locked ?target))))
