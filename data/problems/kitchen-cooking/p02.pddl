(define (problem kitchen-cooking-p02)
  (:domain kitchen-cooking)
  (:objects carrot pepper mushroom - ingredient
            chef-knife - knife board1 - board
            wok saucepan - pan front-left back-right - burner
            plate1 plate2 - plate)
  (:init (on-counter carrot) (whole carrot)
         (on-counter pepper) (whole pepper)
         (on-counter mushroom) (whole mushroom)
         (board-free board1) (knife-clean chef-knife)
         (pan-on-counter wok) (pan-on-counter saucepan)
         (burner-free front-left) (burner-off front-left)
         (burner-free back-right) (burner-off back-right))
  (:goal (and (on-plate carrot plate1) (on-plate pepper plate1)
              (on-plate mushroom plate2) (pan-on-counter wok)
              (burner-off front-left) (burner-off back-right))))
