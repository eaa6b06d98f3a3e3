(define (problem treasure-hunt-p01)
  (:domain treasure-hunt)
  (:objects base beach palm - spot
            old-map - clue
            iron-chest - chest)
  (:init
    (hunter-at base) (camp base) (has-shovel) (hands-free)
    (trail base beach) (trail beach base) (trail beach palm) (trail palm beach)
    (clue-at old-map base) (reveals old-map palm)
    (buried iron-chest palm))
  (:goal (stored iron-chest)))
