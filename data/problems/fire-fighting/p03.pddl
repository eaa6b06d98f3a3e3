(define (problem fire-fighting-p03)
  (:domain fire-fighting)
  (:objects station-a barn-a - location
            engine1-a - truck
            v0-a v1-a v2-a - level
            station-b square-b mill-b factory-b forest-edge-b - location
            engine1-b engine2-b - truck
            v0-b v1-b v2-b v3-b - level)
  (:init
    (road station-a barn-a) (road barn-a station-a) (next v0-a v1-a) (next v1-a v2-a)
    (zero v0-a) (truck-at engine1-a station-a) (water engine1-a v2-a) (tank-capacity engine1-a v2-a)
    (hydrant station-a) (water-fire barn-a) (intensity barn-a v2-a) (road station-b square-b)
    (road square-b station-b) (road square-b mill-b) (road mill-b square-b) (road square-b factory-b)
    (road factory-b square-b) (road mill-b forest-edge-b) (road forest-edge-b mill-b) (next v0-b v1-b)
    (next v1-b v2-b) (next v2-b v3-b) (zero v0-b) (truck-at engine1-b station-b)
    (truck-at engine2-b square-b) (water engine1-b v2-b) (tank-capacity engine1-b v2-b) (water engine2-b v1-b)
    (tank-capacity engine2-b v3-b) (hydrant square-b) (hydrant mill-b) (foam-depot station-b)
    (water-fire mill-b) (intensity mill-b v2-b) (water-fire forest-edge-b) (intensity forest-edge-b v3-b)
    (chemical-fire factory-b) (intensity factory-b v2-b))
  (:goal (and (extinguished barn-a)
              (extinguished mill-b) (extinguished forest-edge-b) (extinguished factory-b))))
