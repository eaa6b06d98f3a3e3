(define (problem construction-site-p01)
  (:domain construction-site)
  (:objects yard - location
            plot1 - site
            masons - crew
            digger - machine
            lorry - truck
            groundwork foundation walls roof finishing - stage)
  (:init (road yard plot1) (road plot1 yard)
         (depot yard)
         (crew-at masons plot1)
         (machine-at digger yard)
         (truck-at lorry yard) (truck-empty lorry)
         (stage-order groundwork foundation) (stage-order foundation walls)
         (stage-order walls roof) (stage-order roof finishing)
         (needs-machine foundation) (needs-machine roof)
         (hand-work walls) (hand-work finishing)
         (crew-skill masons walls)
         (machine-role digger foundation)
         (done plot1 foundation)
         (materials plot1 finishing))
  (:goal (done plot1 walls)))
