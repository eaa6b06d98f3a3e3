(define (problem bakery-ovens-p02)
  (:domain bakery-ovens)
  (:objects
    baguette1 baguette2 brioche rye - dough
    deck-oven convection-oven - oven
    proofer1 - proofer
    moderate medium hot - temperature
    r0 r1 r2 - rack-count)
  (:init
    (proofed baguette1) (shaped baguette2) (mixed brioche) (unmixed rye)
    (proofer-free proofer1)
    (bake-temp baguette1 hot) (bake-temp baguette2 hot)
    (bake-temp brioche moderate) (bake-temp rye medium)
    (oven-temp deck-oven medium) (oven-temp convection-oven moderate)
    (one-more r0 r1) (one-more r1 r2)
    (free-racks deck-oven r2) (all-racks deck-oven r2)
    (free-racks convection-oven r1) (all-racks convection-oven r1))
  (:goal (and (boxed baguette1) (boxed baguette2) (boxed brioche) (cooling rye))))
