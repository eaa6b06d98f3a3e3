(define (problem stone-piles-p01)
  (:domain stone-piles)
  (:objects alice bob
            north-pile south-pile
            n1 n2)
  (:init
    (player alice) (player bob) (pile north-pile) (pile south-pile)
    (to-move alice) (opponent alice bob) (opponent bob alice)
    (stones north-pile n2) (stones south-pile n1) (takeable n1) (takeable n2)
    (minus n1 n1 n0) (minus n2 n1 n1) (minus n2 n2 n0))
  (:goal (and (winner bob))))
