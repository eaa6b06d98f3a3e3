(define (problem train-shunting-p01)
  (:domain train-shunting)
  (:objects shunter - locomotive
            tanker - wagon
            main1 main2 siding-a1 siding-a2 siding-b1 - segment
            points - switch
            to-a to-b - setting)
  (:init (loco-at shunter main1) (occupied main1) (loco-free shunter)
         (wagon-at tanker main2) (occupied main2)
         (track main1 main2) (track main2 main1)
         (track siding-a1 siding-a2) (track siding-a2 siding-a1)
         (has-setting points to-a) (has-setting points to-b) (switch-set points to-b)
         (switch-joins points to-a main2 siding-a1) (switch-joins points to-a siding-a1 main2)
         (switch-joins points to-b main2 siding-b1) (switch-joins points to-b siding-b1 main2))
  (:goal (wagon-at tanker siding-a2)))
