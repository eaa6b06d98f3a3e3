(define (problem satellite-imaging-p02)
  (:domain satellite-imaging)
  (:objects sat1 - satellite
            cam1 spectro1 - instrument
            star1 star2 nebula galaxy station1 - direction
            infrared thermal spectral - mode)
  (:init (on-board cam1 sat1) (on-board spectro1 sat1)
         (supports cam1 infrared) (supports cam1 thermal) (supports spectro1 spectral)
         (calibration-target cam1 star1) (calibration-target spectro1 star2)
         (power-avail sat1) (memory-free sat1)
         (pointing sat1 galaxy) (ground-station station1))
  (:goal (and (downlinked nebula infrared) (downlinked galaxy spectral)
              (downlinked galaxy thermal))))
