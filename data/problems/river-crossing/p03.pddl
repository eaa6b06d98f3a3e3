(define (problem river-crossing-p03)
  (:domain river-crossing)
  (:objects north islet south
            wolf goat cabbage dog cat mouse)
  (:init
    (farmer-at north) (large-boat)
    (at wolf north) (at goat north) (at cabbage north) (at dog north)
    (at cat north) (at mouse north)
    (route north islet) (route islet north) (route islet south) (route south islet)
    (eats wolf goat) (eats goat cabbage) (eats dog cat) (eats cat mouse))
  (:goal (and (at wolf south) (at goat south) (at cabbage south)
              (at dog south) (at cat south) (at mouse islet))))
