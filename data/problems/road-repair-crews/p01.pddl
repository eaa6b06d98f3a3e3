(define (problem road-repair-crews-p01)
  (:domain road-repair-crews)
  (:objects yard crossing village - junction
            yard-road village-road - segment
            crew1 - crew
            m0 m1 m2 - level)
  (:init (connects yard-road yard crossing) (connects yard-road crossing yard)
         (connects village-road crossing village) (connects village-road village crossing)
         (next m0 m1) (next m1 m2) (zero m0)
         (crew-at crew1 yard) (asphalt-plant yard)
         (stock crew1 m1) (stock-capacity crew1 m2)
         (open yard-road)
         (surface-damage village-road) (damage village-road m2))
  (:goal (open village-road)))
