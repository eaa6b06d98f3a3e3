(define (problem vaccine-cold-chain-p00)
  (:domain vaccine-cold-chain)
  (:objects depot clinic - location
            van1 - van
            k0 k1 k2 - level)
  (:init (road depot clinic) (road clinic depot)
         (next k0 k1) (next k1 k2)
         (van-at van1 depot) (warm van1)
         (coolant van1 k0) (full-coolant k2)
         (van-space van1 k1) (van-capacity van1 k1))
  (:goal (van-at van1 clinic)))
