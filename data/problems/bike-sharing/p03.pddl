(define (problem bike-sharing-p03)
  (:domain bike-sharing)
  (:objects lena marco nora omar - rider
            bike1 bike2 bike3 - bike
            central harbour campus park museum - station
            central-1 central-2 harbour-1 campus-1 campus-2 park-1 museum-1 - slot
            van1 - van)
  (:init (rider-at lena central) (on-foot lena) (rider-at marco park) (on-foot marco)
         (rider-at nora museum) (on-foot nora) (rider-at omar campus) (on-foot omar)
         (walkway park central) (walkway central park)
         (walkway museum harbour) (walkway harbour museum)
         (slot-at central-1 central) (slot-at central-2 central)
         (slot-at harbour-1 harbour) (slot-at campus-1 campus) (slot-at campus-2 campus)
         (slot-at park-1 park) (slot-at museum-1 museum)
         (bike-in bike1 central-1) (bike-in bike2 harbour-1) (bike-in bike3 campus-1)
         (slot-free central-2) (slot-free campus-2) (slot-free park-1) (slot-free museum-1)
         (van-at van1 museum))
  (:goal (and (rider-at lena museum) (on-foot lena)
              (rider-at marco harbour) (on-foot marco)
              (rider-at nora campus) (on-foot nora)
              (rider-at omar park) (on-foot omar)
              (bike-in bike1 central-1) (bike-in bike3 park-1))))
