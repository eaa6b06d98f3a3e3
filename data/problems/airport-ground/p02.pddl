(define (problem airport-ground-p02)
  (:domain airport-ground)
  (:objects flight101 flight202 flight303 - aircraft
            gate-a gate-b - gate
            alpha1 alpha2 bravo1 - taxiway
            rwy09 - runway)
  (:init (at flight101 gate-a) (occupied gate-a) (parked flight101)
         (at flight202 gate-b) (occupied gate-b) (parked flight202)
         (approaching flight303)
         (connects gate-a alpha1) (connects alpha1 gate-a)
         (connects gate-b bravo1) (connects bravo1 gate-b)
         (connects alpha1 alpha2) (connects alpha2 alpha1)
         (connects bravo1 alpha2) (connects alpha2 bravo1)
         (connects alpha2 rwy09) (connects rwy09 bravo1))
  (:goal (and (airborne flight101) (airborne flight202) (parked flight303))))
