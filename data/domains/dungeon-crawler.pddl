(define (domain dungeon-crawler)
  (:requirements :strips :typing :negative-preconditions :universal-preconditions)
  (:types room monster hand item - object
          weapon key - item)
  (:constants left right - hand)
  (:predicates
    (hero-in ?r - room)
    (corridor ?from - room ?to - room)
    (locked ?r - room)
    (fits ?k - key ?r - room)
    (item-in ?i - item ?r - room)
    (held ?i - item ?h - hand)
    (hand-empty ?h - hand)
    (monster-in ?m - monster ?r - room)
    (slays ?w - weapon ?m - monster)
    (defeated ?m - monster))

  (:action move
    :parameters (?from - room ?to - room)
    :precondition (and (hero-in ?from) (corridor ?from ?to) (not (locked ?to))
                       (forall (?m - monster) (not (monster-in ?m ?to))))
    :effect (and (hero-in ?to)
                 (not (hero-in ?from))))

  (:action unlock
    :parameters (?k - key ?h - hand ?from - room ?to - room)
    :precondition (and (hero-in ?from) (corridor ?from ?to) (locked ?to)
                       (held ?k ?h) (fits ?k ?to))
    :effect (and (hand-empty ?h)
                 (not (locked ?to))
                 (not (held ?k ?h))))

  (:action attack
    :parameters (?m - monster ?w - weapon ?h - hand ?from - room ?to - room)
    :precondition (and (hero-in ?from) (corridor ?from ?to) (monster-in ?m ?to)
                       (held ?w ?h) (slays ?w ?m))
    :effect (and (defeated ?m)
                 (not (monster-in ?m ?to))))

  (:action pick-up
    :parameters (?i - item ?r - room ?h - hand)
    :precondition (and (hero-in ?r) (item-in ?i ?r) (hand-empty ?h))
    :effect (and (held ?i ?h)
                 (not (item-in ?i ?r))
                 (not (hand-empty ?h))))

  (:action drop
    :parameters (?i - item ?r - room ?h - hand)
    :precondition (and (hero-in ?r) (held ?i ?h))
    :effect (and (item-in ?i ?r)
                 (hand-empty ?h)
                 (not (held ?i ?h)))))
