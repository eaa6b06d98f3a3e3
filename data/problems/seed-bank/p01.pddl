(define (problem seed-bank-p01)
  (:domain seed-bank)
  (:objects
    wheat - sample
    dryer1 - dryer
    packet1 - packet
    vault1 - vault
    damp dry - moisture)
  (:init
    (drier damp dry) (storable dry)
    (seed-moisture wheat damp) (on-bench wheat) (viable wheat)
    (dryer-empty dryer1)
    (packet-empty packet1)
    (vault-open vault1))
  (:goal (and (in-vault packet1 vault1) (vault-frozen vault1))))
