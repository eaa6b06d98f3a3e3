(define (problem stone-piles-p02)
  (:domain stone-piles)
  (:objects alice bob
            pile-a pile-b pile-c
            n1 n2 n3 n4 n5 n6)
  (:init
    (player alice) (player bob) (pile pile-a) (pile pile-b) (pile pile-c)
    (to-move alice) (opponent alice bob) (opponent bob alice)
    (stones pile-a n4) (stones pile-b n5) (stones pile-c n6) (takeable n1)
    (takeable n2) (minus n1 n1 n0) (minus n2 n1 n1) (minus n2 n2 n0)
    (minus n3 n1 n2) (minus n3 n2 n1) (minus n4 n1 n3) (minus n4 n2 n2)
    (minus n5 n1 n4) (minus n5 n2 n3) (minus n6 n1 n5) (minus n6 n2 n4))
  (:goal (and (winner bob))))
