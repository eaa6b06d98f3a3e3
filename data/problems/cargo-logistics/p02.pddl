(define (problem cargo-logistics-p02)
  (:domain cargo-logistics)
  (:objects north central south - region
            north-port central-hub south-port - terminal
            central-market south-farm - site
            cargo-jet - freighter
            central-van south-van - van
            spools seeds - consignment
            r0 r1 r2 - room)
  (:init (room-step r0 r1) (room-step r1 r2)
         (region-of north-port north)
         (region-of central-hub central) (region-of central-market central)
         (region-of south-port south) (region-of south-farm south)
         (air-route north-port central-hub) (air-route central-hub north-port)
         (air-route south-port central-hub) (air-route central-hub south-port)
         (road central-hub central-market) (road central-market central-hub)
         (road south-port south-farm) (road south-farm south-port)
         (customs-post central-hub) (customs-post south-port)
         (parked cargo-jet north-port) (spare cargo-jet r2)
         (parked central-van central-market) (spare central-van r1)
         (parked south-van south-farm) (spare south-van r1)
         (waiting spools north-port) (cleared spools north)
         (waiting seeds south-port) (cleared seeds south)
         (= (total-cost) 0))
  (:goal (and (waiting spools south-farm) (waiting seeds central-market)))
  (:metric minimize (total-cost)))
