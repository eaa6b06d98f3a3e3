(define (problem sudoku-fill-p00)
  (:domain sudoku-fill)
  (:objects c11 c12 c21 c22 - cell
            d1 d2 - digit
            r1 r2 - row
            k1 k2 - column
            g1 g2 g3 g4 - region)
  (:init
    (in-row c11 r1) (in-row c12 r1) (in-row c21 r2) (in-row c22 r2)
    (in-column c11 k1) (in-column c21 k1) (in-column c12 k2) (in-column c22 k2)
    (in-region c11 g1) (in-region c12 g2) (in-region c21 g3) (in-region c22 g4)
    (holds c11 d1) (filled c11) (given c11)
    (holds c12 d1) (filled c12))
  (:goal (and (filled c11) (filled c12) (filled c21) (filled c22))))
