(define (problem river-crossing-p01)
  (:domain river-crossing)
  (:objects west east
            wolf goat cabbage)
  (:init
    (farmer-at west)
    (at wolf west) (at goat west) (at cabbage west)
    (route west east) (route east west)
    (eats wolf goat) (eats goat cabbage))
  (:goal (and (farmer-at east) (at wolf east) (at goat east) (at cabbage east))))
