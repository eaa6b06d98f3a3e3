(define (problem sandwich-bar-p03)
  (:domain sandwich-bar)
  (:objects wheat1 wheat2 wheat3 rye1 gf1 gf2 gf3 - roll
            chicken hummus brie salami avocado falafel - filling
            board1 board2 - board
            counter window-table patio booth - place
            eli fay gus hal ivy jo - guest)
  (:init (in-breadbin wheat1) (in-breadbin wheat2) (in-breadbin wheat3)
         (in-breadbin rye1) (in-breadbin gf1) (in-breadbin gf2) (in-breadbin gf3)
         (gluten-free gf1) (gluten-free gf2) (gluten-free gf3)
         (board-empty board1) (board-empty board2) (crumbs board2)
         (filling-left chicken) (filling-left hummus) (filling-left brie)
         (filling-left salami) (filling-left avocado) (filling-left falafel)
         (waiter-at patio) (pass-at counter)
         (guest-at eli window-table) (coeliac eli)
         (guest-at fay window-table)
         (guest-at gus patio) (coeliac gus)
         (guest-at hal patio)
         (guest-at ivy booth) (coeliac ivy)
         (guest-at jo booth))
  (:goal (and (served eli) (served fay) (served gus)
              (served hal) (served ivy) (served jo))))
