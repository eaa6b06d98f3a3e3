(define (problem floor-tiling-p02)
  (:domain floor-tiling)
  (:objects rob1 rob2 - robot
            t1-1 t1-2 t1-3 t2-1 t2-2 t2-3 t3-1 t3-2 t3-3 - tile
            white black - colour
            l0 l1 l2 l3 - level)
  (:init
    (unpainted t1-1) (unpainted t1-2) (unpainted t1-3) (unpainted t2-1)
    (unpainted t2-2) (unpainted t2-3) (unpainted t3-1) (depot t3-1)
    (unpainted t3-2) (unpainted t3-3) (depot t3-3) (robot-on rob1 t3-1)
    (occupied t3-1) (brush-colour rob1 white) (paint-left rob1 l3)
    (robot-on rob2 t3-3) (occupied t3-3) (brush-colour rob2 black)
    (paint-left rob2 l3) (adjacent t1-1 t2-1) (adjacent t1-1 t1-2)
    (adjacent t1-2 t2-2) (adjacent t1-2 t1-1) (adjacent t1-2 t1-3)
    (adjacent t1-3 t2-3) (adjacent t1-3 t1-2) (adjacent t2-1 t1-1)
    (adjacent t2-1 t3-1) (adjacent t2-1 t2-2) (adjacent t2-2 t1-2)
    (adjacent t2-2 t3-2) (adjacent t2-2 t2-1) (adjacent t2-2 t2-3)
    (adjacent t2-3 t1-3) (adjacent t2-3 t3-3) (adjacent t2-3 t2-2)
    (adjacent t3-1 t2-1) (adjacent t3-1 t3-2) (adjacent t3-2 t2-2)
    (adjacent t3-2 t3-1) (adjacent t3-2 t3-3) (adjacent t3-3 t2-3)
    (adjacent t3-3 t3-2) (one-less l1 l0) (one-less l2 l1) (one-less l3 l2)
    (full-level l3))
  (:goal (and
    (painted t1-1 white) (painted t1-2 black) (painted t1-3 white)
    (painted t2-1 black) (painted t2-2 white) (painted t2-3 black))))
