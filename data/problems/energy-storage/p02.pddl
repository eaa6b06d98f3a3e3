(define (problem energy-storage-p02)
  (:domain energy-storage)
  (:objects morning noon afternoon evening night - period
            solar-field wind-park - generator
            backup-diesel - diesel
            bank-a bank-b - battery
            clinic school pump-station - consumer
            c0 c1 c2 c3 - level)
  (:init (now morning)
         (next-period morning noon) (next-period noon afternoon)
         (next-period afternoon evening) (next-period evening night)
         (next c0 c1) (next c1 c2) (next c2 c3)
         (output-ready wind-park morning)
         (output-ready solar-field noon) (output-ready solar-field afternoon)
         (output-ready wind-park noon) (output-ready wind-park night)
         (fuel backup-diesel c2)
         (charge bank-a c1) (charge bank-b c0)
         (linked bank-a clinic) (linked bank-a school)
         (linked bank-b pump-station) (linked bank-b clinic)
         (demands school morning) (demands clinic morning)
         (demands pump-station afternoon)
         (demands clinic evening) (demands school evening) (demands pump-station evening)
         (demands clinic night) (demands pump-station night))
  (:goal (and (served school morning) (served clinic morning)
              (served pump-station afternoon)
              (served clinic evening) (served school evening) (served pump-station evening)
              (served clinic night) (served pump-station night))))
