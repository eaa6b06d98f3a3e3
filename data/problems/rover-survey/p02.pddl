(define (problem rover-survey-p02)
  (:domain rover-survey)
  (:objects driller spotter - rover
            landing basin scarp dunefield plateau - site
            c0 c1 c2 c3 - charge
            left-bay right-bay - bay
            mound arch - landmark
            morning noon evening - phase)
  (:init (parked driller landing) (parked spotter plateau)
         (trail landing basin) (trail basin landing)
         (trail basin scarp) (trail scarp basin)
         (trail landing dunefield) (trail dunefield landing)
         (trail dunefield plateau) (trail plateau dunefield)
         (depot landing) (sunlit landing) (sunlit scarp) (sunlit plateau)
         (skyview landing) (skyview plateau)
         (deposit basin) (deposit scarp)
         (overlooks scarp mound) (overlooks dunefield arch)
         (charge-step c0 c1) (charge-step c1 c2) (charge-step c2 c3)
         (energy driller c3) (energy spotter c1)
         (drill-fitted driller) (camera-fitted spotter) (camera-fitted driller)
         (bay-on left-bay driller) (bay-on right-bay driller)
         (now morning) (phase-follows morning noon) (phase-follows noon evening)
         (phase-follows evening morning)
         (orbiter-up evening)
         (= (total-cost) 0))
  (:goal (and (core-cached basin) (core-cached scarp)
              (frame-relayed mound) (frame-relayed arch)))
  (:metric minimize (total-cost)))
