(define (problem satellite-imaging-p03)
  (:domain satellite-imaging)
  (:objects sat1 sat2 - satellite
            cam1 spectro1 cam2 - instrument
            star1 star2 star3 nebula galaxy comet planet station1 station2 - direction
            infrared thermal spectral - mode)
  (:init (on-board cam1 sat1) (on-board spectro1 sat1) (on-board cam2 sat2)
         (supports cam1 infrared) (supports spectro1 spectral)
         (supports cam2 thermal) (supports cam2 infrared)
         (calibration-target cam1 star1) (calibration-target spectro1 star2)
         (calibration-target cam2 star3)
         (power-avail sat1) (power-avail sat2) (memory-free sat1) (memory-free sat2)
         (pointing sat1 planet) (pointing sat2 station2)
         (ground-station station1) (ground-station station2))
  (:goal (and (downlinked nebula infrared) (downlinked galaxy spectral)
              (downlinked comet thermal) (downlinked planet spectral)
              (downlinked planet thermal))))
