(define (problem dungeon-crawler-p01)
  (:domain dungeon-crawler)
  (:objects entrance hall - room
            goblin - monster
            crown - item
            short-sword - weapon)
  (:init
    (hero-in entrance) (hand-empty left) (hand-empty right)
    (corridor entrance hall) (corridor hall entrance)
    (item-in short-sword entrance) (item-in crown hall)
    (monster-in goblin hall)
    (slays short-sword goblin))
  (:goal (item-in crown entrance)))
