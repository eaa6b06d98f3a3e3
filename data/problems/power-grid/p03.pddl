(define (problem power-grid-p03)
  (:domain power-grid)
  (:objects
    crew1 crew2 - crew
    riverside quarry meadow ridge - substation
    brk-r1 brk-r2 brk-q1 brk-m1 brk-g1 - breaker
    l1 l2 l3 l4 l5 l6 l7 l8 - line
    hospital mill school dairy sawmill farm inn station - customer)
  (:init
    (crew-at crew1 depot) (crew-at crew2 depot)
    (road depot riverside) (road riverside depot)
    (road riverside quarry) (road quarry riverside)
    (road depot meadow) (road meadow depot)
    (road meadow ridge) (road ridge meadow)
    (breaker-in brk-r1 riverside) (breaker-in brk-r2 riverside)
    (breaker-in brk-q1 quarry) (breaker-in brk-m1 meadow) (breaker-in brk-g1 ridge)
    (feeds brk-r1 l1) (feeds brk-q1 l1)
    (feeds brk-r1 l2)
    (feeds brk-q1 l3)
    (feeds brk-m1 l4) (feeds brk-m1 l5)
    (feeds brk-g1 l6) (feeds brk-g1 l7)
    (feeds brk-r2 l8)
    (supplies l1 hospital) (supplies l2 mill) (supplies l3 school) (supplies l4 dairy)
    (supplies l5 sawmill) (supplies l6 farm) (supplies l7 inn) (supplies l8 station)
    (breaker-closed brk-r1) (breaker-closed brk-q1) (breaker-closed brk-g1)
    (faulted l2) (faulted l5) (faulted l6)
    (energized l1) (energized l2) (energized l3) (energized l6) (energized l7)
    (powered hospital) (powered school) (powered inn))
  (:goal (and (powered hospital) (powered mill) (powered school) (powered dairy)
              (powered sawmill) (powered farm) (powered inn) (powered station))))
