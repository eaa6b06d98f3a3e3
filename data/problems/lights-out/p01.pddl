(define (problem lights-out-p01)
  (:domain lights-out)
  (:objects x1-1 x1-2 x1-3 x2-1 x2-2 x2-3 - cell
            k0 k1 k2 k3 k4 - counter)
  (:init
    (lit x1-1) (lit x1-3) (neighbour x1-1 x2-1) (neighbour x1-1 x1-2)
    (neighbour x1-2 x2-2) (neighbour x1-2 x1-1) (neighbour x1-2 x1-3)
    (neighbour x1-3 x2-3) (neighbour x1-3 x1-2) (neighbour x2-1 x1-1)
    (neighbour x2-1 x2-2) (neighbour x2-2 x1-2) (neighbour x2-2 x2-1)
    (neighbour x2-2 x2-3) (neighbour x2-3 x1-3) (neighbour x2-3 x2-2)
    (presses-left k4) (one-less k1 k0) (one-less k2 k1) (one-less k3 k2)
    (one-less k4 k3))
  (:goal (and
    (not (lit x1-1)) (not (lit x1-2)) (not (lit x1-3)) (not (lit x2-1))
    (not (lit x2-2)) (not (lit x2-3)))))
