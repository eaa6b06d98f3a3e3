(define (problem reactor-control-p02)
  (:domain reactor-control)
  (:objects
    rod-a rod-b rod-c rod-d rod-e rod-f - rod
    pump-north pump-south pump-spare - pump
    p0 p1 p2 p3 p4 p5 p6 - power-level)
  (:init
    (step-up p0 p1) (step-up p1 p2) (step-up p2 p3)
    (step-up p3 p4) (step-up p4 p5) (step-up p5 p6)
    (low-band p0) (low-band p1) (low-band p2)
    (mid-band p3) (mid-band p4)
    (high-band p5) (high-band p6)
    (rated p5)
    (withdrawn rod-a) (withdrawn rod-b) (withdrawn rod-c)
    (rod-stuck rod-d) (rod-stuck rod-e)
    (power p3)
    (pump-on pump-north)
    (pump-faulty pump-south) (pump-faulty pump-spare))
  (:goal (and (grid-connected) (not (withdrawn rod-f))
              (not (pump-on pump-north)))))
