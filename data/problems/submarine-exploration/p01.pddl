(define (problem submarine-exploration-p01)
  (:domain submarine-exploration)
  (:objects nautilus - submarine
            c1 c2 c3 - cell)
  (:init (sub-at nautilus c1) (submerged nautilus) (sonar-ready nautilus)
         (adjacent c1 c2) (adjacent c2 c1) (adjacent c2 c3) (adjacent c3 c2)
         (hidden-wreck c2))
  (:goal (reported c2)))
