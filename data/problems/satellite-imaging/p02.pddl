(define (problem satellite-imaging-p02)
  (:domain satellite-imaging)
  (:objects heron ibis - spacecraft
            heron-cam heron-radar ibis-cam - sensor
            arc1 arc2 arc3 arc4 - zone
            delta volcano reef - site
            kiruna perth - station
            visible radar - band
            q0 q1 q2 q3 - amount)
  (:init (one-more q0 q1) (one-more q1 q2) (one-more q2 q3)
         (track-next arc1 arc2) (track-next arc2 arc3)
         (track-next arc3 arc4) (track-next arc4 arc1)
         (overlooks arc2 delta) (overlooks arc3 volcano) (overlooks arc4 reef)
         (in-contact arc1 kiruna) (in-contact arc3 perth)
         (sunlit arc2) (sunlit arc3)
         (mounted heron-cam heron) (captures-in heron-cam visible)
         (mounted heron-radar heron) (captures-in heron-radar radar)
         (mounted ibis-cam ibis) (captures-in ibis-cam visible)
         (craft-over heron arc1) (craft-over ibis arc3)
         (battery heron q1) (free-space heron q1)
         (battery ibis q1) (free-space ibis q1))
  (:goal (and (received delta radar) (received volcano visible)
              (received reef visible))))
