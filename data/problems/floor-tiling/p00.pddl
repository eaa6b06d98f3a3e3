(define (problem floor-tiling-p00)
  (:domain floor-tiling)
  (:objects rob1 - robot
            t1-1 t1-2 t1-3 t1-4 - tile
            white black - colour
            l0 l1 l2 l3 - level)
  (:init
    (unpainted t1-1) (depot t1-1) (unpainted t1-2) (unpainted t1-3)
    (unpainted t1-4) (robot-on rob1 t1-4) (occupied t1-4)
    (brush-colour rob1 white) (paint-left rob1 l1) (adjacent t1-1 t1-2)
    (adjacent t1-2 t1-1) (adjacent t1-2 t1-3) (adjacent t1-3 t1-2)
    (adjacent t1-3 t1-4) (adjacent t1-4 t1-3) (one-less l1 l0)
    (one-less l2 l1) (one-less l3 l2) (full-level l3))
  (:goal (and
    (painted t1-2 black) (painted t1-3 white) (painted t1-4 white))))
