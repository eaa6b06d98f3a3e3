(define (problem airport-ground-p01)
  (:domain airport-ground)
  (:objects flight101 - aircraft
            gate-a - gate
            alpha1 alpha2 - taxiway
            rwy09 - runway)
  (:init (at flight101 gate-a) (occupied gate-a) (parked flight101)
         (connects gate-a alpha1) (connects alpha1 gate-a)
         (connects alpha1 alpha2) (connects alpha2 alpha1)
         (connects alpha2 rwy09) (connects rwy09 alpha2))
  (:goal (airborne flight101)))
