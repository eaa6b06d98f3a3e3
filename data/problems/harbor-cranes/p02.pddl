(define (problem harbor-cranes-p02)
  (:domain harbor-cranes)
  (:objects berth1 berth2 berth3 - berth
            stack-yard cold-store - yard
            aurora borealis - ship
            gantry1 gantry2 - crane
            tr1 tr2 - truck
            box1 box2 fridge1 fridge2 - container)
  (:init (docked aurora berth1) (docked borealis berth3)
         (adjacent berth1 berth2) (adjacent berth2 berth1)
         (adjacent berth2 berth3) (adjacent berth3 berth2)
         (crane-at gantry1 berth2) (crane-free gantry1)
         (crane-at gantry2 berth3) (crane-free gantry2)
         (aboard box1 aurora) (aboard fridge1 aurora)
         (aboard box2 borealis) (aboard fridge2 borealis)
         (dry-box box1) (dry-box box2)
         (reefer fridge1) (reefer fridge2)
         (truck-at tr1 stack-yard) (truck-empty tr1)
         (truck-at tr2 cold-store) (truck-empty tr2) (power-unit tr2)
         (road berth1 berth2) (road berth2 berth1)
         (road berth2 berth3) (road berth3 berth2)
         (road berth1 stack-yard) (road stack-yard berth1)
         (road berth3 stack-yard) (road stack-yard berth3)
         (road stack-yard cold-store) (road cold-store stack-yard))
  (:goal (and (stored box1 stack-yard) (stored box2 stack-yard)
              (stored fridge1 cold-store) (stored fridge2 cold-store))))
