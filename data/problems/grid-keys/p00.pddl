(define (problem grid-keys-p00)
  (:domain grid-keys)
  (:objects c1 c2 c3 - cell
            brass steel - key
            circle square - shape)
  (:init (robot-at c1) (holding brass)
         (adjacent c1 c2) (adjacent c2 c1) (adjacent c2 c3) (adjacent c3 c2)
         (locked c3) (lock-shape c3 square)
         (key-shape brass circle) (key-shape steel square) (key-at steel c1))
  (:goal (and (robot-at c3) (key-at brass c1))))
