(define (problem harbor-cranes-p03)
  (:domain harbor-cranes)
  (:objects berth1-a - berth
            stack-yard-a - yard
            aurora-a - ship
            gantry1-a - crane
            tr1-a - truck
            box1-a - container
            berth1-b berth2-b berth3-b - berth
            stack-yard-b cold-store-b - yard
            aurora-b borealis-b - ship
            gantry1-b gantry2-b - crane
            tr1-b tr2-b - truck
            box1-b box2-b fridge1-b fridge2-b - container)
  (:init
    (docked aurora-a berth1-a) (crane-at gantry1-a berth1-a) (crane-free gantry1-a) (aboard box1-a aurora-a)
    (dry-box box1-a) (truck-at tr1-a stack-yard-a) (truck-empty tr1-a) (road berth1-a stack-yard-a)
    (road stack-yard-a berth1-a) (docked aurora-b berth1-b) (docked borealis-b berth3-b) (adjacent berth1-b berth2-b)
    (adjacent berth2-b berth1-b) (adjacent berth2-b berth3-b) (adjacent berth3-b berth2-b) (crane-at gantry1-b berth2-b)
    (crane-free gantry1-b) (crane-at gantry2-b berth3-b) (crane-free gantry2-b) (aboard box1-b aurora-b)
    (aboard fridge1-b aurora-b) (aboard box2-b borealis-b) (aboard fridge2-b borealis-b) (dry-box box1-b)
    (dry-box box2-b) (reefer fridge1-b) (reefer fridge2-b) (truck-at tr1-b stack-yard-b)
    (truck-empty tr1-b) (truck-at tr2-b cold-store-b) (truck-empty tr2-b) (power-unit tr2-b)
    (road berth1-b berth2-b) (road berth2-b berth1-b) (road berth2-b berth3-b) (road berth3-b berth2-b)
    (road berth1-b stack-yard-b) (road stack-yard-b berth1-b) (road berth3-b stack-yard-b) (road stack-yard-b berth3-b)
    (road stack-yard-b cold-store-b) (road cold-store-b stack-yard-b))
  (:goal (and (stored box1-a stack-yard-a)
              (stored box1-b stack-yard-b) (stored box2-b stack-yard-b)
              (stored fridge1-b cold-store-b) (stored fridge2-b cold-store-b))))
