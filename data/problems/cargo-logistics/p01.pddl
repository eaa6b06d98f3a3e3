(define (problem cargo-logistics-p01)
  (:domain cargo-logistics)
  (:objects lowland highland - region
            lowland-airstrip highland-airstrip - terminal
            highland-clinic - site
            bush-plane - freighter
            jeep - van
            vaccines - consignment
            r0 r1 r2 - room)
  (:init (room-step r0 r1) (room-step r1 r2)
         (region-of lowland-airstrip lowland) (region-of highland-airstrip highland)
         (region-of highland-clinic highland)
         (air-route lowland-airstrip highland-airstrip) (air-route highland-airstrip lowland-airstrip)
         (road highland-airstrip highland-clinic) (road highland-clinic highland-airstrip)
         (customs-post highland-airstrip)
         (parked bush-plane lowland-airstrip) (spare bush-plane r2)
         (parked jeep highland-airstrip) (spare jeep r1)
         (waiting vaccines lowland-airstrip) (cleared vaccines lowland)
         (= (total-cost) 0))
  (:goal (waiting vaccines highland-clinic))
  (:metric minimize (total-cost)))
