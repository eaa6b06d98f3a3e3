(define (problem mining-ore-p03)
  (:domain mining-ore)
  (:objects north-pit-a - pit
            rim-gate-a - place
            primary-a - crusher
            hauler1-a - truck
            iron-a - grade
            n0-a n1-a n2-a - level
            north-pit-b east-pit-b south-pit-b - pit
            rim-gate-b haul-junction-b - place
            primary-b secondary-b - crusher
            hauler1-b hauler2-b - truck
            iron-b copper-b - grade
            n0-b n1-b n2-b n3-b - level)
  (:init
    (next n0-a n1-a) (next n1-a n2-a) (ramp north-pit-a rim-gate-a) (ramp rim-gate-a north-pit-a)
    (paved-road rim-gate-a primary-a) (paved-road primary-a rim-gate-a) (truck-at hauler1-a north-pit-a) (empty hauler1-a)
    (grade-of north-pit-a iron-a) (ore-left north-pit-a n2-a) (accepts primary-a iron-a) (hopper primary-a n0-a)
    (hopper-fits primary-a n1-a) (output primary-a n0-a) (= (total-cost) 0) (next n0-b n1-b)
    (next n1-b n2-b) (next n2-b n3-b) (ramp north-pit-b rim-gate-b) (ramp rim-gate-b north-pit-b)
    (ramp east-pit-b haul-junction-b) (ramp haul-junction-b east-pit-b) (ramp south-pit-b haul-junction-b) (ramp haul-junction-b south-pit-b)
    (ramp north-pit-b east-pit-b) (ramp east-pit-b north-pit-b) (paved-road rim-gate-b primary-b) (paved-road primary-b rim-gate-b)
    (paved-road rim-gate-b haul-junction-b) (paved-road haul-junction-b rim-gate-b) (paved-road haul-junction-b secondary-b) (paved-road secondary-b haul-junction-b)
    (truck-at hauler1-b north-pit-b) (empty hauler1-b) (truck-at hauler2-b secondary-b) (empty hauler2-b)
    (grade-of north-pit-b iron-b) (ore-left north-pit-b n1-b) (grade-of east-pit-b iron-b) (ore-left east-pit-b n3-b)
    (grade-of south-pit-b copper-b) (ore-left south-pit-b n2-b) (accepts primary-b iron-b) (accepts secondary-b copper-b)
    (accepts secondary-b iron-b) (hopper primary-b n0-b) (hopper-fits primary-b n1-b) (hopper-fits primary-b n2-b)
    (hopper secondary-b n0-b) (hopper-fits secondary-b n1-b) (output primary-b n0-b) (output secondary-b n0-b))
  (:goal (and (output primary-a n1-a)
              (output primary-b n2-b) (output secondary-b n1-b)))
  (:metric minimize (total-cost)))
