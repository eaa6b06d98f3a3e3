(define (problem harbor-cranes-p01)
  (:domain harbor-cranes)
  (:objects berth1 - berth
            stack-yard - yard
            aurora - ship
            gantry1 - crane
            tr1 - truck
            box1 - container)
  (:init (docked aurora berth1)
         (crane-at gantry1 berth1) (crane-free gantry1)
         (aboard box1 aurora) (dry-box box1)
         (truck-at tr1 stack-yard) (truck-empty tr1)
         (road berth1 stack-yard) (road stack-yard berth1))
  (:goal (stored box1 stack-yard)))
