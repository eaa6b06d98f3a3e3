(define (problem river-crossing-p01)
  (:domain river-crossing)
  (:objects wolf goat cabbage)
  (:init
    (farmer-at near-bank)
    (at wolf near-bank) (at goat near-bank) (at cabbage near-bank)
    (route near-bank far-bank) (route far-bank near-bank)
    (eats wolf goat) (eats goat cabbage))
  (:goal (and (farmer-at far-bank) (at wolf far-bank) (at goat far-bank) (at cabbage far-bank))))
