(define (problem water-jugs-p03)
  (:domain water-jugs)
  (:objects eight five three - jug
            l1 l2 l3 l4 l5 l6 l7 l8 - level)
  (:init
    (idle)
    (contains eight l8) (contains five l0) (contains three l0)
    (capacity eight l8) (capacity five l5) (capacity three l3)
    (one-more l0 l1) (one-more l1 l2) (one-more l2 l3)
    (one-more l3 l4) (one-more l4 l5) (one-more l5 l6) (one-more l6 l7)
    (one-more l7 l8))
  (:goal (and (idle) (contains eight l4) (contains five l4))))
