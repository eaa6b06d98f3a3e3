(define (problem river-crossing-p02)
  (:domain river-crossing)
  (:objects west island east
            fox hen grain basket)
  (:init
    (farmer-at west)
    (at fox west) (at hen west) (at grain west) (at basket west)
    (route west island) (route island west) (route island east) (route east island)
    (eats fox hen) (eats hen grain))
  (:goal (and (at fox east) (at hen east) (at grain east) (at basket island))))
