(define (problem restaurant-service-p02)
  (:domain restaurant-service)
  (:objects smiths jones patels lees - party
            t1 t2 - table
            lucia marco - waiter
            risotto steak salmon curry - dish
            rice beef fish - ingredient
            s0 s1 s2 - level)
  (:init (waiting smiths) (waiting jones) (waiting patels) (waiting lees)
         (fits smiths t1) (fits jones t1) (fits jones t2)
         (fits patels t2) (fits lees t1)
         (table-free t1) (table-free t2)
         (section lucia t1) (section marco t2)
         (accepts smiths steak) (accepts smiths salmon)
         (accepts jones steak)
         (accepts patels curry) (accepts patels risotto)
         (accepts lees salmon) (accepts lees steak)
         (main-ingredient risotto rice) (main-ingredient curry rice)
         (main-ingredient steak beef) (main-ingredient salmon fish)
         (stock rice s2) (stock beef s2) (stock fish s1)
         (next s0 s1) (next s1 s2))
  (:goal (and (paid smiths) (paid jones) (paid patels) (paid lees)
              (table-free t1) (table-free t2))))
