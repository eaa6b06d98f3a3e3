(define (problem fire-fighting-p01)
  (:domain fire-fighting)
  (:objects station barn - location
            engine1 - truck
            v0 v1 v2 - level)
  (:init (road station barn) (road barn station)
         (next v0 v1) (next v1 v2) (zero v0)
         (truck-at engine1 station)
         (water engine1 v2) (tank-capacity engine1 v2)
         (hydrant station)
         (water-fire barn) (intensity barn v2))
  (:goal (extinguished barn)))
