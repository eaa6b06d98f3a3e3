(define (problem road-repair-crews-p03)
  (:domain road-repair-crews)
  (:objects yard-a crossing-a village-a - junction
            yard-road-a village-road-a - segment
            crew1-a - crew
            m0-a m1-a m2-a - level
            yard-b crossing-b village-b river-east-b river-west-b farm-b - junction
            yard-road-b village-road-b bridge-b west-road-b farm-lane-b - segment
            crew1-b crew2-b - crew
            m0-b m1-b m2-b m3-b - level)
  (:init
    (connects yard-road-a yard-a crossing-a) (connects yard-road-a crossing-a yard-a) (connects village-road-a crossing-a village-a) (connects village-road-a village-a crossing-a)
    (next m0-a m1-a) (next m1-a m2-a) (zero m0-a) (crew-at crew1-a yard-a)
    (asphalt-plant yard-a) (stock crew1-a m1-a) (stock-capacity crew1-a m2-a) (open yard-road-a)
    (surface-damage village-road-a) (damage village-road-a m2-a) (connects yard-road-b yard-b crossing-b) (connects yard-road-b crossing-b yard-b)
    (connects village-road-b crossing-b village-b) (connects village-road-b village-b crossing-b) (connects bridge-b crossing-b river-east-b) (connects bridge-b river-east-b crossing-b)
    (connects west-road-b river-east-b river-west-b) (connects west-road-b river-west-b river-east-b) (connects farm-lane-b village-b farm-b) (connects farm-lane-b farm-b village-b)
    (next m0-b m1-b) (next m1-b m2-b) (next m2-b m3-b) (zero m0-b)
    (crew-at crew1-b yard-b) (crew-at crew2-b crossing-b) (asphalt-plant yard-b) (stock crew1-b m0-b)
    (stock-capacity crew1-b m3-b) (stock crew2-b m1-b) (stock-capacity crew2-b m2-b) (bridge-certified crew2-b)
    (open yard-road-b) (open west-road-b) (surface-damage village-road-b) (damage village-road-b m1-b)
    (structural-damage bridge-b) (damage bridge-b m2-b) (surface-damage farm-lane-b) (damage farm-lane-b m2-b))
  (:goal (and (open village-road-a)
              (open village-road-b) (open bridge-b) (open farm-lane-b)
              (crew-at crew2-b river-west-b))))
