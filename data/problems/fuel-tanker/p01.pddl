(define (problem fuel-tanker-p01)
  (:domain fuel-tanker)
  (:objects rig1 - tanker
            tank-a - compartment
            refinery-west station-north - place
            diesel - grade)
  (:init (tanker-at rig1 refinery-west) (compartment-of tank-a rig1) (compartment-empty tank-a)
         (refinery refinery-west diesel)
         (highway refinery-west station-north) (highway station-north refinery-west)
         (demand station-north diesel)
         (= (total-cost) 0))
  (:goal (supplied station-north diesel))
  (:metric minimize (total-cost)))
