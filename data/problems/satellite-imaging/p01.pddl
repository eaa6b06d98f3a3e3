(define (problem satellite-imaging-p01)
  (:domain satellite-imaging)
  (:objects sat1 - satellite
            cam1 - instrument
            star1 nebula station1 - direction
            infrared - mode)
  (:init (on-board cam1 sat1) (supports cam1 infrared) (calibration-target cam1 star1)
         (power-on cam1) (calibrated cam1) (memory-free sat1)
         (pointing sat1 station1) (ground-station station1))
  (:goal (downlinked nebula infrared)))
