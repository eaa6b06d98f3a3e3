(define (problem rover-survey-p01)
  (:domain rover-survey)
  (:objects pathfinder - rover
            landing basin - site
            c0 c1 c2 c3 - charge
            hold - bay
            mound - landmark
            dawn dusk - phase)
  (:init (parked pathfinder landing)
         (trail landing basin) (trail basin landing)
         (depot landing) (sunlit landing) (skyview landing)
         (deposit basin) (overlooks basin mound)
         (charge-step c0 c1) (charge-step c1 c2) (charge-step c2 c3)
         (energy pathfinder c3)
         (drill-fitted pathfinder) (camera-fitted pathfinder)
         (bay-on hold pathfinder)
         (now dawn) (phase-follows dawn dusk) (phase-follows dusk dawn)
         (orbiter-up dusk)
         (= (total-cost) 0))
  (:goal (and (core-cached basin) (frame-relayed mound)))
  (:metric minimize (total-cost)))
