(define (problem water-jugs-p02)
  (:domain water-jugs)
  (:objects five three - jug
            l1 l2 l3 l4 l5 - level)
  (:init
    (idle)
    (contains five l0) (contains three l0)
    (capacity five l5) (capacity three l3)
    (one-more l0 l1) (one-more l1 l2) (one-more l2 l3)
    (one-more l3 l4) (one-more l4 l5))
  (:goal (and (idle) (contains five l4))))
