(define (problem parking-garage-p03)
  (:domain parking-garage)
  (:objects ground-a upper-a - floor
            g1-a u1-a u2-a - spot
            val-a - valet
            sedan-a - car
            ground-b level1-b level2-b - floor
            g1-b g2-b a1-b a2-b b1-b b2-b - spot
            val1-b val2-b - valet
            sedan-b van-b ev-hatch-b ev-suv-b coupe-b - car)
  (:init
    (entrance ground-a) (ramp ground-a upper-a) (ramp upper-a ground-a) (spot-on g1-a ground-a)
    (spot-on u1-a upper-a) (spot-on u2-a upper-a) (occupied g1-a) (charger u1-a)
    (valet-at val-a ground-a) (waiting sedan-a) (entrance ground-b) (ramp ground-b level1-b)
    (ramp level1-b ground-b) (ramp level1-b level2-b) (ramp level2-b level1-b) (spot-on g1-b ground-b)
    (spot-on g2-b ground-b) (spot-on a1-b level1-b) (spot-on a2-b level1-b) (spot-on b1-b level2-b)
    (spot-on b2-b level2-b) (charger g2-b) (charger b1-b) (valet-at val1-b ground-b)
    (valet-at val2-b level1-b) (parked coupe-b a1-b) (occupied a1-b) (requested coupe-b)
    (parked van-b g1-b) (occupied g1-b) (parked ev-suv-b g2-b) (occupied g2-b)
    (charging ev-suv-b) (electric ev-suv-b) (electric ev-hatch-b) (waiting sedan-b)
    (waiting ev-hatch-b))
  (:goal (and (parked sedan-a u2-a) (valet-at val-a ground-a)
              (returned coupe-b) (charging ev-hatch-b) (parked sedan-b a2-b)
              (parked ev-suv-b b2-b))))
