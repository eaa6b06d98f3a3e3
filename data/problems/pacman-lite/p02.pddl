(define (problem pacman-lite-p02)
  (:domain pacman-lite)
  (:objects x1-1 x1-2 x1-3 x1-4 x2-2 x2-4 x3-1 x3-2 x3-3 x3-4 x4-2 x4-4 - cell
            ghost1 ghost2 - ghost
            pel1 pel2 pel3 - pellet
            e0 e1 e2 e3 - level)
  (:init
    (pac-at x1-1) (energizer-at x1-4) (ghost-at ghost1 x2-2) (haunted x2-2)
    (ghost-at ghost2 x3-3) (haunted x3-3) (pellet-in pel1 x1-3)
    (pellet-in pel2 x3-1) (pellet-in pel3 x4-4) (link x1-1 x1-2)
    (link x1-2 x2-2) (link x1-2 x1-1) (link x1-2 x1-3) (link x1-3 x1-2)
    (link x1-3 x1-4) (link x1-4 x2-4) (link x1-4 x1-3) (link x2-2 x1-2)
    (link x2-2 x3-2) (link x2-4 x1-4) (link x2-4 x3-4) (link x3-1 x3-2)
    (link x3-2 x2-2) (link x3-2 x4-2) (link x3-2 x3-1) (link x3-2 x3-3)
    (link x3-3 x3-2) (link x3-3 x3-4) (link x3-4 x2-4) (link x3-4 x4-4)
    (link x3-4 x3-3) (link x4-2 x3-2) (link x4-4 x3-4) (power e0) (zero e0)
    (max-power e3) (one-less e1 e0) (one-less e2 e1) (one-less e3 e2))
  (:goal (and
    (eaten pel1) (eaten pel2) (eaten pel3) (ghost-eaten ghost2))))
