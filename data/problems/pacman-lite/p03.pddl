(define (problem pacman-lite-p03)
  (:domain pacman-lite)
  (:objects x1-1 x1-2 x1-3 x1-4 x1-6 x1-7 x1-8 x2-1 x2-4 x2-5 x2-6 x2-8 x3-1
            x3-2 x3-4 x3-5 x3-6 x3-7 x3-8 x4-1 x4-2 x4-3 x4-4 x4-7 x4-8 x5-2
            x5-4 x5-5 x5-6 x5-7 x5-8 - cell
            ghost1 ghost2 ghost3 - ghost
            pel1 pel2 pel3 pel4 pel5 pel6 - pellet
            e0 e1 e2 e3 e4 - level)
  (:init
    (pac-at x1-1) (energizer-at x1-8) (energizer-at x3-2)
    (ghost-at ghost1 x2-5) (haunted x2-5) (ghost-at ghost2 x3-7)
    (haunted x3-7) (ghost-at ghost3 x4-3) (haunted x4-3) (pellet-in pel1 x1-3)
    (pellet-in pel2 x3-5) (pellet-in pel3 x3-8) (pellet-in pel4 x5-2)
    (pellet-in pel5 x5-6) (pellet-in pel6 x5-8) (link x1-1 x2-1)
    (link x1-1 x1-2) (link x1-2 x1-1) (link x1-2 x1-3) (link x1-3 x1-2)
    (link x1-3 x1-4) (link x1-4 x2-4) (link x1-4 x1-3) (link x1-6 x2-6)
    (link x1-6 x1-7) (link x1-7 x1-6) (link x1-7 x1-8) (link x1-8 x2-8)
    (link x1-8 x1-7) (link x2-1 x1-1) (link x2-1 x3-1) (link x2-4 x1-4)
    (link x2-4 x3-4) (link x2-4 x2-5) (link x2-5 x3-5) (link x2-5 x2-4)
    (link x2-5 x2-6) (link x2-6 x1-6) (link x2-6 x3-6) (link x2-6 x2-5)
    (link x2-8 x1-8) (link x2-8 x3-8) (link x3-1 x2-1) (link x3-1 x4-1)
    (link x3-1 x3-2) (link x3-2 x4-2) (link x3-2 x3-1) (link x3-4 x2-4)
    (link x3-4 x4-4) (link x3-4 x3-5) (link x3-5 x2-5) (link x3-5 x3-4)
    (link x3-5 x3-6) (link x3-6 x2-6) (link x3-6 x3-5) (link x3-6 x3-7)
    (link x3-7 x4-7) (link x3-7 x3-6) (link x3-7 x3-8) (link x3-8 x2-8)
    (link x3-8 x4-8) (link x3-8 x3-7) (link x4-1 x3-1) (link x4-1 x4-2)
    (link x4-2 x3-2) (link x4-2 x5-2) (link x4-2 x4-1) (link x4-2 x4-3)
    (link x4-3 x4-2) (link x4-3 x4-4) (link x4-4 x3-4) (link x4-4 x5-4)
    (link x4-4 x4-3) (link x4-7 x3-7) (link x4-7 x5-7) (link x4-7 x4-8)
    (link x4-8 x3-8) (link x4-8 x5-8) (link x4-8 x4-7) (link x5-2 x4-2)
    (link x5-4 x4-4) (link x5-4 x5-5) (link x5-5 x5-4) (link x5-5 x5-6)
    (link x5-6 x5-5) (link x5-6 x5-7) (link x5-7 x4-7) (link x5-7 x5-6)
    (link x5-7 x5-8) (link x5-8 x4-8) (link x5-8 x5-7) (power e0) (zero e0)
    (max-power e4) (one-less e1 e0) (one-less e2 e1) (one-less e3 e2)
    (one-less e4 e3))
  (:goal (and
    (eaten pel1) (eaten pel2) (eaten pel3) (eaten pel4) (eaten pel5)
    (eaten pel6) (ghost-eaten ghost1))))
