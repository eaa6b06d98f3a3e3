(define (problem reactor-control-p00)
  (:domain reactor-control)
  (:objects
    rod1 rod2 rod3 - rod
    pump1 - pump
    p0 p1 p2 p3 - power-level)
  (:init
    (step-up p0 p1) (step-up p1 p2) (step-up p2 p3)
    (low-band p0) (low-band p1) (mid-band p2) (high-band p3)
    (rated p2)
    (power p0))
  (:goal (pump-on pump1)))
