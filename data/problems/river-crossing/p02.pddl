(define (problem river-crossing-p02)
  (:domain river-crossing)
  (:objects island fox hen grain basket)
  (:init
    (farmer-at near-bank)
    (at fox near-bank) (at hen near-bank) (at grain near-bank) (at basket near-bank)
    (route near-bank island) (route island near-bank) (route island far-bank) (route far-bank island)
    (eats fox hen) (eats hen grain))
  (:goal (and (at fox far-bank) (at hen far-bank) (at grain far-bank) (at basket island))))
