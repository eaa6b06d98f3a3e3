(define (problem parking-garage-p01)
  (:domain parking-garage)
  (:objects ground upper - floor
            g1 u1 u2 - spot
            val - valet
            sedan - car)
  (:init (entrance ground)
         (ramp ground upper) (ramp upper ground)
         (spot-on g1 ground) (spot-on u1 upper) (spot-on u2 upper)
         (occupied g1) (charger u1)
         (valet-at val ground)
         (waiting sedan))
  (:goal (and (parked sedan u2) (valet-at val ground))))
