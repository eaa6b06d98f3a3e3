(define (problem kitchen-cooking-p01)
  (:domain kitchen-cooking)
  (:objects onion - ingredient knife1 - knife board1 - board
            skillet - pan front-left - burner dish1 - plate)
  (:init (on-counter onion) (whole onion) (board-free board1) (knife-clean knife1)
         (pan-on-burner skillet front-left) (burner-off front-left))
  (:goal (and (cooked onion) (burner-off front-left))))
