(define (problem satellite-imaging-p03)
  (:domain satellite-imaging)
  (:objects osprey tern plover - spacecraft
            osprey-cam osprey-thermal tern-radar tern-cam plover-thermal - sensor
            leg1 leg2 leg3 leg4 leg5 leg6 - zone
            canyon harbour forest dune lake - site
            fairbanks hartebeest santiago - station
            visible thermal radar - band
            q0 q1 q2 q3 - amount)
  (:init (one-more q0 q1) (one-more q1 q2) (one-more q2 q3)
         (track-next leg1 leg2) (track-next leg2 leg3) (track-next leg3 leg4)
         (track-next leg4 leg5) (track-next leg5 leg6) (track-next leg6 leg1)
         (overlooks leg2 canyon) (overlooks leg3 harbour) (overlooks leg3 dune)
         (overlooks leg5 forest) (overlooks leg6 lake)
         (in-contact leg1 fairbanks) (in-contact leg4 hartebeest) (in-contact leg6 santiago)
         (sunlit leg2) (sunlit leg3) (sunlit leg5)
         (mounted osprey-cam osprey) (captures-in osprey-cam visible)
         (mounted osprey-thermal osprey) (captures-in osprey-thermal thermal)
         (mounted tern-radar tern) (captures-in tern-radar radar)
         (mounted tern-cam tern) (captures-in tern-cam visible)
         (mounted plover-thermal plover) (captures-in plover-thermal thermal)
         (sensor-warm tern-cam)
         (craft-over osprey leg1) (craft-over tern leg4) (craft-over plover leg6)
         (battery osprey q1) (free-space osprey q2)
         (battery tern q0) (free-space tern q1)
         (battery plover q2) (free-space plover q1))
  (:goal (and (received canyon thermal) (received harbour visible)
              (received dune radar) (received forest visible)
              (received lake thermal) (received canyon radar)
              (not (sensor-warm tern-cam)))))
