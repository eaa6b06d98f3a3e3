(define (problem bike-sharing-p00)
  (:domain bike-sharing)
  (:objects ann - rider
            home park - station)
  (:init (rider-at ann home) (on-foot ann)
         (walkway home park) (walkway park home))
  (:goal (rider-at ann park)))
