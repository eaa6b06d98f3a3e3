(define (problem water-jugs-p01)
  (:domain water-jugs)
  (:objects big small - jug
            l1 l2 l3 - level)
  (:init
    (idle)
    (contains big l0) (contains small l0)
    (capacity big l3) (capacity small l1)
    (one-more l0 l1) (one-more l1 l2) (one-more l2 l3))
  (:goal (and (idle) (contains big l2))))
