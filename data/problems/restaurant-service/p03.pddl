(define (problem restaurant-service-p03)
  (:domain restaurant-service)
  (:objects smiths-a - party
            t1-a - table
            lucia-a - waiter
            risotto-a - dish
            rice-a - ingredient
            s0-a s1-a - level
            smiths-b jones-b patels-b lees-b - party
            t1-b t2-b - table
            lucia-b marco-b - waiter
            risotto-b steak-b salmon-b curry-b - dish
            rice-b beef-b fish-b - ingredient
            s0-b s1-b s2-b - level)
  (:init
    (waiting smiths-a) (fits smiths-a t1-a) (table-free t1-a) (section lucia-a t1-a)
    (accepts smiths-a risotto-a) (main-ingredient risotto-a rice-a) (stock rice-a s1-a) (next s0-a s1-a)
    (waiting smiths-b) (waiting jones-b) (waiting patels-b) (waiting lees-b)
    (fits smiths-b t1-b) (fits jones-b t1-b) (fits jones-b t2-b) (fits patels-b t2-b)
    (fits lees-b t1-b) (table-free t1-b) (table-free t2-b) (section lucia-b t1-b)
    (section marco-b t2-b) (accepts smiths-b steak-b) (accepts smiths-b salmon-b) (accepts jones-b steak-b)
    (accepts patels-b curry-b) (accepts patels-b risotto-b) (accepts lees-b salmon-b) (accepts lees-b steak-b)
    (main-ingredient risotto-b rice-b) (main-ingredient curry-b rice-b) (main-ingredient steak-b beef-b) (main-ingredient salmon-b fish-b)
    (stock rice-b s2-b) (stock beef-b s2-b) (stock fish-b s1-b) (next s0-b s1-b)
    (next s1-b s2-b))
  (:goal (and (paid smiths-a) (table-free t1-a)
              (paid smiths-b) (paid jones-b) (paid patels-b) (paid lees-b)
              (table-free t1-b) (table-free t2-b))))
