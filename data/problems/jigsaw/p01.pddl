(define (problem jigsaw-p01)
  (:domain jigsaw)
  (:objects piece-a piece-b piece-c - piece
            s1-1 s1-2 s1-3 - slot)
  (:init
    (hand-free) (loose piece-a) (loose piece-b) (loose piece-c)
    (face-up piece-a) (face-down piece-b) (face-up piece-c) (slot-empty s1-1)
    (slot-empty s1-2) (slot-empty s1-3) (right-of s1-1 s1-2)
    (right-of s1-2 s1-3) (joins-right piece-b piece-c)
    (joins-right piece-c piece-a) (corner-piece piece-b) (corner-slot s1-1))
  (:goal (and
    (placed piece-b s1-1) (placed piece-c s1-2) (placed piece-a s1-3))))
