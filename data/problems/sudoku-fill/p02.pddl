(define (problem sudoku-fill-p02)
  (:domain sudoku-fill)
  (:objects c11 c12 c13 c14 c21 c22 c23 c24 c31 c32 c33 c34 c41 c42 c43 c44 - cell
            d1 d2 d3 d4 - digit
            r1 r2 r3 r4 - row
            k1 k2 k3 k4 - column
            g1 g2 g3 g4 - region)
  (:init
    (in-row c11 r1) (in-row c12 r1) (in-row c13 r1) (in-row c14 r1)
    (in-row c21 r2) (in-row c22 r2) (in-row c23 r2) (in-row c24 r2)
    (in-row c31 r3) (in-row c32 r3) (in-row c33 r3) (in-row c34 r3)
    (in-row c41 r4) (in-row c42 r4) (in-row c43 r4) (in-row c44 r4)
    (in-column c11 k1) (in-column c12 k2) (in-column c13 k3)
    (in-column c14 k4) (in-column c21 k1) (in-column c22 k2)
    (in-column c23 k3) (in-column c24 k4) (in-column c31 k1)
    (in-column c32 k2) (in-column c33 k3) (in-column c34 k4)
    (in-column c41 k1) (in-column c42 k2) (in-column c43 k3)
    (in-column c44 k4) (in-region c11 g1) (in-region c12 g1)
    (in-region c13 g2) (in-region c14 g2) (in-region c21 g1)
    (in-region c22 g1) (in-region c23 g2) (in-region c24 g2)
    (in-region c31 g3) (in-region c32 g3) (in-region c33 g4)
    (in-region c34 g4) (in-region c41 g3) (in-region c42 g3)
    (in-region c43 g4) (in-region c44 g4)
    (holds c12 d3) (filled c12) (given c12)
    (holds c23 d2) (filled c23) (given c23)
    (holds c24 d3) (filled c24) (given c24)
    (holds c31 d3) (filled c31) (given c31)
    (holds c43 d3) (filled c43) (given c43))
  (:goal (and
    (filled c11) (filled c13) (filled c14) (filled c21) (filled c22)
    (filled c32) (filled c33) (filled c34) (filled c41) (filled c42)
    (filled c44) (holds c14 d1) (holds c33 d1))))
