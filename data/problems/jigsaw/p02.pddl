(define (problem jigsaw-p02)
  (:domain jigsaw)
  (:objects piece-a piece-b piece-c piece-d piece-e piece-f - piece
            s1-1 s1-2 s1-3 s2-1 s2-2 s2-3 - slot)
  (:init
    (hand-free) (loose piece-a) (loose piece-b) (loose piece-c)
    (loose piece-d) (loose piece-e) (loose piece-f) (face-up piece-a)
    (face-up piece-b) (face-down piece-c) (face-up piece-d) (face-up piece-e)
    (face-down piece-f) (slot-empty s1-1) (slot-empty s1-2) (slot-empty s1-3)
    (slot-empty s2-1) (slot-empty s2-2) (slot-empty s2-3) (right-of s1-1 s1-2)
    (right-of s1-2 s1-3) (right-of s2-1 s2-2) (right-of s2-2 s2-3)
    (below s1-1 s2-1) (below s1-2 s2-2) (below s1-3 s2-3)
    (joins-right piece-c piece-d) (joins-right piece-d piece-b)
    (joins-right piece-e piece-f) (joins-right piece-f piece-a)
    (joins-below piece-c piece-e) (joins-below piece-d piece-f)
    (joins-below piece-b piece-a) (corner-piece piece-c) (corner-slot s1-1))
  (:goal (and
    (placed piece-c s1-1) (placed piece-d s1-2) (placed piece-b s1-3)
    (placed piece-e s2-1) (placed piece-f s2-2) (placed piece-a s2-3))))
