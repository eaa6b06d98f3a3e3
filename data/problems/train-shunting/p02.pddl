(define (problem train-shunting-p02)
  (:domain train-shunting)
  (:objects shunter - locomotive
            tanker boxcar - wagon
            main1 main2 main3 siding-a1 siding-a2 siding-b1 siding-b2 - segment
            points - switch
            to-a to-b - setting)
  (:init (loco-at shunter main1) (occupied main1) (loco-free shunter)
         (wagon-at tanker siding-a2) (occupied siding-a2)
         (wagon-at boxcar siding-b2) (occupied siding-b2)
         (track main1 main2) (track main2 main1) (track main2 main3) (track main3 main2)
         (track siding-a1 siding-a2) (track siding-a2 siding-a1)
         (track siding-b1 siding-b2) (track siding-b2 siding-b1)
         (has-setting points to-a) (has-setting points to-b) (switch-set points to-a)
         (switch-joins points to-a main3 siding-a1) (switch-joins points to-a siding-a1 main3)
         (switch-joins points to-b main3 siding-b1) (switch-joins points to-b siding-b1 main3))
  (:goal (and (wagon-at tanker siding-b2) (wagon-at boxcar siding-a2))))
