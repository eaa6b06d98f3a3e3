(define (problem pacman-lite-p01)
  (:domain pacman-lite)
  (:objects x1-1 x1-2 x1-3 x2-2 x3-2 - cell
            ghost1 - ghost
            pel1 pel2 - pellet
            e0 e1 e2 - level)
  (:init
    (pac-at x1-1) (energizer-at x1-3) (ghost-at ghost1 x2-2) (haunted x2-2)
    (pellet-in pel1 x1-2) (pellet-in pel2 x3-2) (link x1-1 x1-2)
    (link x1-2 x2-2) (link x1-2 x1-1) (link x1-2 x1-3) (link x1-3 x1-2)
    (link x2-2 x1-2) (link x2-2 x3-2) (link x3-2 x2-2) (power e0) (zero e0)
    (max-power e2) (one-less e1 e0) (one-less e2 e1))
  (:goal (and
    (eaten pel1) (eaten pel2))))
