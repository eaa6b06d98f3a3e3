(define (problem restaurant-service-p01)
  (:domain restaurant-service)
  (:objects smiths - party
            t1 - table
            lucia - waiter
            risotto - dish
            rice - ingredient
            s0 s1 - level)
  (:init (waiting smiths) (fits smiths t1) (table-free t1)
         (section lucia t1)
         (accepts smiths risotto) (main-ingredient risotto rice)
         (stock rice s1) (next s0 s1))
  (:goal (and (paid smiths) (table-free t1))))
