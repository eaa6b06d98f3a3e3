(define (problem energy-storage-p00)
  (:domain energy-storage)
  (:objects noon evening - period
            solar-roof - generator
            home-battery - battery
            house workshop - consumer
            c0 c1 c2 - level)
  (:init (now noon) (next-period noon evening)
         (next c0 c1) (next c1 c2)
         (output-ready solar-roof noon)
         (charge home-battery c0)
         (linked home-battery house)
         (demands workshop noon))
  (:goal (served workshop noon)))
