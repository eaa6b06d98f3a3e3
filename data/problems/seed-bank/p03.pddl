(define (problem seed-bank-p03)
  (:domain seed-bank)
  (:objects wheat-a - sample
            dryer1-a - dryer
            packet1-a - packet
            vault1-a - vault
            damp-a dry-a - moisture
            barley-b lentil-b sorghum-b old-rice-b - sample
            dryer1-b - dryer
            pk1-b pk2-b pk3-b pk4-b - packet
            north-vault-b - vault
            wet-b damp-b dry-b bone-dry-b - moisture)
  (:init
    (drier damp-a dry-a) (storable dry-a) (seed-moisture wheat-a damp-a) (on-bench wheat-a)
    (viable wheat-a) (dryer-empty dryer1-a) (packet-empty packet1-a) (vault-open vault1-a)
    (drier wet-b damp-b) (drier damp-b dry-b) (drier dry-b bone-dry-b) (storable dry-b)
    (storable bone-dry-b) (seed-moisture barley-b wet-b) (on-bench barley-b) (viable barley-b)
    (seed-moisture lentil-b damp-b) (on-bench lentil-b) (viable lentil-b) (seed-moisture sorghum-b dry-b)
    (on-bench sorghum-b) (viable sorghum-b) (seed-moisture old-rice-b dry-b) (viable old-rice-b)
    (dryer-empty dryer1-b) (packet-holds pk4-b old-rice-b) (in-vault pk4-b north-vault-b) (packet-empty pk1-b)
    (packet-empty pk2-b) (packet-empty pk3-b))
  (:goal (and (in-vault packet1-a vault1-a) (vault-frozen vault1-a)
              (vault-frozen north-vault-b)
              (packet-holds pk1-b barley-b) (in-vault pk1-b north-vault-b)
              (packet-holds pk2-b lentil-b) (in-vault pk2-b north-vault-b)
              (packet-holds pk3-b sorghum-b) (in-vault pk3-b north-vault-b))))
