(define (problem knight-moves-p01)
  (:domain knight-moves)
  (:objects a1 a2 a3 b1 b2 b3 c1 c2 c3 d1 d2 d3
            pawn1 pawn2)
  (:init
    (knight-at a2) (visited a2) (pawn-on pawn1 c3)
    (pawn-on pawn2 d1) (knight-step a3 c2) (knight-step a3 b1)
    (knight-step b3 d2) (knight-step b3 c1) (knight-step b3 a1)
    (knight-step c3 d1) (knight-step c3 a2) (knight-step c3 b1)
    (knight-step d3 b2) (knight-step d3 c1) (knight-step a2 c1)
    (knight-step a2 c3) (knight-step b2 d1) (knight-step b2 d3)
    (knight-step c2 a1) (knight-step c2 a3) (knight-step d2 b1)
    (knight-step d2 b3) (knight-step a1 c2) (knight-step a1 b3)
    (knight-step b1 d2) (knight-step b1 c3) (knight-step b1 a3)
    (knight-step c1 d3) (knight-step c1 a2) (knight-step c1 b3)
    (knight-step d1 b2) (knight-step d1 c3))
  (:goal (and
    (captured pawn1) (captured pawn2) (knight-at b3))))
