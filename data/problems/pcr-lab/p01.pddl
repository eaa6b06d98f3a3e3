(define (problem pcr-lab-p01)
  (:domain pcr-lab)
  (:objects
    swab1 - sample
    tube1 - tube
    mix1 - mix-aliquot
    cycler1 - thermocycler
    gel1 - gel
    lane1 lane2 - lane)
  (:init
    (raw swab1)
    (thawed mix1)
    (lane-of lane1 gel1) (lane-of lane2 gel1))
  (:goal (analysed swab1)))
