(define (problem power-grid-p01)
  (:domain power-grid)
  (:objects
    crew1 - crew
    north - substation
    brk1 - breaker
    line1 line2 - line
    farm mill - customer)
  (:init
    (crew-at crew1 depot)
    (road depot north) (road north depot)
    (breaker-in brk1 north)
    (feeds brk1 line1) (feeds brk1 line2)
    (supplies line1 farm) (supplies line2 mill)
 (faulted line2))
  (:goal (and (powered farm) (powered mill))))
