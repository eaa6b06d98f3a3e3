(define (problem satellite-imaging-p01)
  (:domain satellite-imaging)
  (:objects kestrel - spacecraft
            kestrel-cam - sensor
            pass-north pass-equator pass-south - zone
            glacier - site
            svalbard - station
            visible - band
            q0 q1 q2 - amount)
  (:init (one-more q0 q1) (one-more q1 q2)
         (track-next pass-north pass-equator) (track-next pass-equator pass-south)
         (track-next pass-south pass-north)
         (overlooks pass-equator glacier)
         (in-contact pass-south svalbard)
         (sunlit pass-equator)
         (mounted kestrel-cam kestrel) (captures-in kestrel-cam visible)
         (craft-over kestrel pass-north)
         (battery kestrel q2) (free-space kestrel q1))
  (:goal (received glacier visible)))
