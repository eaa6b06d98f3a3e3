(define (problem grid-keys-p01)
  (:domain grid-keys)
  (:objects c1 c2 c3 c4 - cell
            brass - key
            circle - shape)
  (:init (robot-at c1) (hand-free)
         (adjacent c1 c2) (adjacent c2 c1) (adjacent c2 c3) (adjacent c3 c2)
         (adjacent c3 c4) (adjacent c4 c3)
         (locked c3) (lock-shape c3 circle)
         (key-shape brass circle) (key-at brass c1))
  (:goal (robot-at c4)))
