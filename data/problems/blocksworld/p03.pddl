(define (problem blocksworld-p03)
  (:domain blocksworld)
  (:objects a-a b-a c-a - block
            a-b b-b c-b d-b e-b - block)
  (:init
    (on-table a-a) (on b-a a-a) (clear b-a) (on-table c-a)
    (clear c-a) (hand-empty) (on-table a-b) (on b-b a-b)
    (on c-b b-b) (clear c-b) (on-table d-b) (on e-b d-b)
    (clear e-b))
  (:goal (and (on a-a b-a) (on b-a c-a)
              (on a-b e-b) (on e-b c-b) (on c-b d-b) (on d-b b-b) (on-table b-b))))
