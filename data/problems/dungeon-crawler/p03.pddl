(define (problem dungeon-crawler-p03)
  (:domain dungeon-crawler)
  (:objects stairs guardroom kennel forge shrine lair treasury - room
            orc hound wraith dragon - monster
            crown sceptre - item
            axe spear holy-sword - weapon
            iron-key gold-key - key)
  (:init
    (hero-in stairs) (hand-empty left) (hand-empty right)
    (corridor stairs guardroom) (corridor guardroom stairs)
    (corridor guardroom kennel) (corridor kennel guardroom)
    (corridor guardroom forge) (corridor forge guardroom)
    (corridor forge shrine) (corridor shrine forge)
    (corridor shrine lair) (corridor lair shrine)
    (corridor lair treasury) (corridor treasury lair)
    (corridor kennel lair) (corridor lair kennel)
    (item-in axe stairs) (item-in spear kennel) (item-in iron-key guardroom)
    (item-in holy-sword shrine) (item-in gold-key kennel)
    (item-in crown treasury) (item-in sceptre lair)
    (monster-in orc guardroom)
    (monster-in hound kennel)
    (monster-in wraith shrine)
    (monster-in dragon lair)
    (locked forge) (fits iron-key forge)
    (locked treasury) (fits gold-key treasury)
    (slays axe orc) (slays axe hound) (slays spear wraith)
    (slays holy-sword dragon))
  (:goal (and (item-in crown stairs) (item-in sceptre stairs))))
