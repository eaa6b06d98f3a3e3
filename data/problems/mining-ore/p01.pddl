(define (problem mining-ore-p01)
  (:domain mining-ore)
  (:objects north-pit - pit
            rim-gate - place
            primary - crusher
            hauler1 - truck
            iron - grade
            n0 n1 n2 - level)
  (:init (next n0 n1) (next n1 n2)
         (ramp north-pit rim-gate) (ramp rim-gate north-pit)
         (paved-road rim-gate primary) (paved-road primary rim-gate)
         (truck-at hauler1 north-pit) (empty hauler1)
         (grade-of north-pit iron) (ore-left north-pit n2)
         (accepts primary iron)
         (hopper primary n0) (hopper-fits primary n1)
         (output primary n0)
         (= (total-cost) 0))
  (:goal (output primary n1))
  (:metric minimize (total-cost)))
