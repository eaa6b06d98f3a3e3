(define (problem mining-ore-p02)
  (:domain mining-ore)
  (:objects north-pit east-pit south-pit - pit
            rim-gate haul-junction - place
            primary secondary - crusher
            hauler1 hauler2 - truck
            iron copper - grade
            n0 n1 n2 n3 - level)
  (:init (next n0 n1) (next n1 n2) (next n2 n3)
         (ramp north-pit rim-gate) (ramp rim-gate north-pit)
         (ramp east-pit haul-junction) (ramp haul-junction east-pit)
         (ramp south-pit haul-junction) (ramp haul-junction south-pit)
         (ramp north-pit east-pit) (ramp east-pit north-pit)
         (paved-road rim-gate primary) (paved-road primary rim-gate)
         (paved-road rim-gate haul-junction) (paved-road haul-junction rim-gate)
         (paved-road haul-junction secondary) (paved-road secondary haul-junction)
         (truck-at hauler1 north-pit) (empty hauler1)
         (truck-at hauler2 secondary) (empty hauler2)
         (grade-of north-pit iron) (ore-left north-pit n1)
         (grade-of east-pit iron) (ore-left east-pit n3)
         (grade-of south-pit copper) (ore-left south-pit n2)
         (accepts primary iron) (accepts secondary copper) (accepts secondary iron)
         (hopper primary n0) (hopper-fits primary n1) (hopper-fits primary n2)
         (hopper secondary n0) (hopper-fits secondary n1)
         (output primary n0) (output secondary n0)
         (= (total-cost) 0))
  (:goal (and (output primary n2) (output secondary n1)))
  (:metric minimize (total-cost)))
