(define (problem sliding-tiles-p02)
  (:domain sliding-tiles)
  (:objects t1 t2 t3 t4 t5 t6 t7 t8 - tile
            p1-1 p1-2 p1-3 p2-1 p2-2 p2-3 p3-1 p3-2 p3-3 - position)
  (:init
    (tile-at t1 p1-3) (tile-at t2 p2-3) (tile-at t3 p3-3) (tile-at t4 p1-2)
    (tile-at t5 p2-2) (tile-at t6 p3-2) (tile-at t7 p1-1) (tile-at t8 p2-1)
    (blank-at p3-1) (left-of p1-1 p1-2) (left-of p1-2 p1-3)
    (left-of p2-1 p2-2) (left-of p2-2 p2-3) (left-of p3-1 p3-2)
    (left-of p3-2 p3-3) (above p1-1 p2-1) (above p1-2 p2-2) (above p1-3 p2-3)
    (above p2-1 p3-1) (above p2-2 p3-2) (above p2-3 p3-3) (= (total-cost) 0))
  (:goal (and
    (tile-at t1 p1-1) (tile-at t2 p1-2) (tile-at t3 p1-3) (tile-at t4 p2-1)
    (tile-at t5 p2-2) (tile-at t6 p2-3) (tile-at t7 p3-1) (tile-at t8 p3-2)))
  (:metric minimize (total-cost)))
