(define (problem kitchen-cooking-p03)
  (:domain kitchen-cooking)
  (:objects garlic leek potato tomato courgette - ingredient
            paring-knife chef-knife - knife board1 board2 - board
            skillet pot - pan left right - burner
            plate1 plate2 plate3 - plate)
  (:init (on-counter garlic) (whole garlic)
         (on-counter leek) (whole leek)
         (on-counter potato) (whole potato)
         (on-counter tomato) (whole tomato)
         (on-counter courgette) (whole courgette)
         (board-free board1) (board-free board2)
         (knife-clean paring-knife) (knife-dirty chef-knife)
         (pan-on-counter skillet) (pan-on-burner pot right)
         (burner-free left) (burner-off left) (burner-lit right))
  (:goal (and (on-plate garlic plate1) (on-plate leek plate1)
              (on-plate potato plate2) (on-plate tomato plate3)
              (on-plate courgette plate3)
              (burner-off left) (burner-off right))))
