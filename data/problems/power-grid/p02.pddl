(define (problem power-grid-p02)
  (:domain power-grid)
  (:objects
    crew1 crew2 - crew
    east west hill - substation
    brk-e1 brk-e2 brk-w1 brk-h1 - breaker
    l1 l2 l3 l4 l5 l6 - line
    school clinic bakery harbour pumping-plant village - customer)
  (:init
    (crew-at crew1 depot) (crew-at crew2 depot)
    (road depot east) (road east depot)
    (road depot west) (road west depot)
    (road west hill) (road hill west)
    (breaker-in brk-e1 east) (breaker-in brk-e2 east)
    (breaker-in brk-w1 west) (breaker-in brk-h1 hill)
    (feeds brk-e1 l1) (feeds brk-e1 l2)
    (feeds brk-e2 l3)
    (feeds brk-w1 l4)
    (feeds brk-h1 l5) (feeds brk-h1 l6)
    (supplies l1 school) (supplies l2 clinic)
    (supplies l3 bakery) (supplies l4 harbour)
    (supplies l5 pumping-plant) (supplies l6 village)
    (breaker-closed brk-e1)
    (breaker-closed brk-w1) (breaker-closed brk-h1)
 (faulted l2)
    (faulted l5)
    (energized l1) (energized l4) (energized l5) (energized l6)
    (powered school) (powered harbour) (powered village))
  (:goal (and (powered school) (powered clinic) (powered bakery)
              (powered harbour) (powered pumping-plant) (powered village))))
