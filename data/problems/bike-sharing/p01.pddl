(define (problem bike-sharing-p01)
  (:domain bike-sharing)
  (:objects lena - rider
            bike1 - bike
            central harbour - station
            central-1 harbour-1 - slot
            van1 - van)
  (:init (rider-at lena central) (on-foot lena)
         (slot-at central-1 central) (slot-at harbour-1 harbour)
         (bike-in bike1 central-1) (slot-free harbour-1)
         (van-at van1 harbour))
  (:goal (and (rider-at lena harbour) (on-foot lena))))
