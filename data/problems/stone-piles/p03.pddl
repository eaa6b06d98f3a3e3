(define (problem stone-piles-p03)
  (:domain stone-piles)
  (:objects alice bob
            pile-a pile-b pile-c pile-d
            n1 n2 n3 n4 n5 n6 n7 n8)
  (:init
    (player alice) (player bob) (pile pile-a) (pile pile-b) (pile pile-c) (pile pile-d)
    (to-move bob) (opponent alice bob) (opponent bob alice)
    (stones pile-a n5) (stones pile-b n6) (stones pile-c n7)
    (stones pile-d n8) (takeable n1) (takeable n3) (minus n1 n1 n0)
    (minus n2 n1 n1) (minus n3 n1 n2) (minus n3 n3 n0) (minus n4 n1 n3)
    (minus n4 n3 n1) (minus n5 n1 n4) (minus n5 n3 n2) (minus n6 n1 n5)
    (minus n6 n3 n3) (minus n7 n1 n6) (minus n7 n3 n4) (minus n8 n1 n7)
    (minus n8 n3 n5))
  (:goal (and (winner alice))))
