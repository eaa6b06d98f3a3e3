(define (problem lights-out-p01)
  (:domain lights-out)
  (:objects x1-1 x1-2 x1-3 x2-1 x2-2 x2-3)
  (:init
    (cell x1-1) (cell x1-2) (cell x1-3) (cell x2-1) (cell x2-2) (cell x2-3)
    (lit x1-1) (lit x1-3) (neighbour x1-1 x2-1) (neighbour x1-1 x1-2)
    (neighbour x1-2 x2-2) (neighbour x1-2 x1-1) (neighbour x1-2 x1-3)
    (neighbour x1-3 x2-3) (neighbour x1-3 x1-2) (neighbour x2-1 x1-1)
    (neighbour x2-1 x2-2) (neighbour x2-2 x1-2) (neighbour x2-2 x2-1)
    (neighbour x2-2 x2-3) (neighbour x2-3 x1-3) (neighbour x2-3 x2-2))
  (:goal (and
    (not (lit x1-1)) (not (lit x1-2)) (not (lit x1-3)) (not (lit x2-1))
    (not (lit x2-2)) (not (lit x2-3)))))
