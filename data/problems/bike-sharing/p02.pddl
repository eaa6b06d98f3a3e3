(define (problem bike-sharing-p02)
  (:domain bike-sharing)
  (:objects lena marco - rider
            bike1 bike2 - bike
            central harbour campus park - station
            central-1 central-2 harbour-1 campus-1 park-1 - slot
            van1 - van)
  (:init (rider-at lena central) (on-foot lena) (rider-at marco park) (on-foot marco)
         (walkway park central) (walkway central park)
         (slot-at central-1 central) (slot-at central-2 central)
         (slot-at harbour-1 harbour) (slot-at campus-1 campus) (slot-at park-1 park)
         (bike-in bike1 central-1) (bike-in bike2 harbour-1)
         (slot-free central-2) (slot-free campus-1) (slot-free park-1)
         (van-at van1 central))
  (:goal (and (rider-at lena campus) (on-foot lena)
              (rider-at marco harbour) (on-foot marco)
              (bike-in bike2 park-1))))
