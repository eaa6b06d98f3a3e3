(define (problem seed-bank-p02)
  (:domain seed-bank)
  (:objects
    barley lentil sorghum old-rice - sample
    dryer1 - dryer
    pk1 pk2 pk3 pk4 - packet
    north-vault - vault
    wet damp dry bone-dry - moisture)
  (:init
    (drier wet damp) (drier damp dry) (drier dry bone-dry)
    (storable dry) (storable bone-dry)
    (seed-moisture barley wet) (on-bench barley) (viable barley)
    (seed-moisture lentil damp) (on-bench lentil) (viable lentil)
    (seed-moisture sorghum dry) (on-bench sorghum) (viable sorghum)
    (seed-moisture old-rice dry) (viable old-rice)
    (dryer-empty dryer1)
    (packet-holds pk4 old-rice) (in-vault pk4 north-vault)
    (packet-empty pk1) (packet-empty pk2) (packet-empty pk3)
    )
  (:goal (and (vault-frozen north-vault)
              (packet-holds pk1 barley) (in-vault pk1 north-vault)
              (packet-holds pk2 lentil) (in-vault pk2 north-vault)
              (packet-holds pk3 sorghum) (in-vault pk3 north-vault))))
