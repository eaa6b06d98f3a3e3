(define (problem train-shunting-p03)
  (:domain train-shunting)
  (:objects shunter pusher - locomotive
            tanker boxcar hopper - wagon
            main1 main2 main3 main4 siding-a1 siding-a2 siding-b1 siding-b2 siding-c1 - segment
            west-points east-points - switch
            straight diverge - setting)
  (:init (loco-at shunter main1) (occupied main1) (loco-free shunter)
         (loco-at pusher siding-c1) (occupied siding-c1) (loco-free pusher)
         (wagon-at tanker siding-a2) (occupied siding-a2)
         (wagon-at boxcar siding-b2) (occupied siding-b2)
         (wagon-at hopper main3) (occupied main3)
         (track main1 main2) (track main2 main1) (track main3 main4) (track main4 main3)
         (track siding-a1 siding-a2) (track siding-a2 siding-a1)
         (track siding-b1 siding-b2) (track siding-b2 siding-b1)
         (has-setting west-points straight) (has-setting west-points diverge)
         (has-setting east-points straight) (has-setting east-points diverge)
         (switch-set west-points diverge) (switch-set east-points straight)
         (switch-joins west-points straight main2 main3) (switch-joins west-points straight main3 main2)
         (switch-joins west-points diverge main2 siding-a1) (switch-joins west-points diverge siding-a1 main2)
         (switch-joins east-points straight main4 siding-c1) (switch-joins east-points straight siding-c1 main4)
         (switch-joins east-points diverge main4 siding-b1) (switch-joins east-points diverge siding-b1 main4))
  (:goal (and (wagon-at tanker siding-b2) (wagon-at boxcar siding-a2) (wagon-at hopper main1))))
