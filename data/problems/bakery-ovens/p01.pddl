(define (problem bakery-ovens-p01)
  (:domain bakery-ovens)
  (:objects
    sourdough - dough
    deck-oven - oven
    proofer1 - proofer
    hot - temperature
    r0 r1 - rack-count)
  (:init
    (shaped sourdough)
    (proofer-free proofer1)
    (bake-temp sourdough hot)
    (oven-temp deck-oven hot)
    (one-more r0 r1)
    (free-racks deck-oven r1) (all-racks deck-oven r1))
  (:goal (boxed sourdough)))
