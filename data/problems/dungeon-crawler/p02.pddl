(define (problem dungeon-crawler-p02)
  (:domain dungeon-crawler)
  (:objects gate armory crypt library vault - room
            skeleton ghost - monster
            chalice - item
            mace silver-dagger - weapon
            bone-key - key)
  (:init
    (hero-in gate) (hand-empty left) (hand-empty right)
    (corridor gate armory) (corridor armory gate)
    (corridor gate crypt) (corridor crypt gate)
    (corridor crypt library) (corridor library crypt)
    (corridor library vault) (corridor vault library)
    (item-in mace armory) (item-in silver-dagger crypt)
    (item-in bone-key crypt) (item-in chalice vault)
    (monster-in skeleton crypt)
    (monster-in ghost library)
    (locked vault) (fits bone-key vault)
    (slays mace skeleton) (slays silver-dagger ghost))
  (:goal (and (item-in chalice gate) (defeated ghost))))
