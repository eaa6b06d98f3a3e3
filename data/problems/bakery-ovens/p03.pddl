(define (problem bakery-ovens-p03)
  (:domain bakery-ovens)
  (:objects sourdough-a - dough
            deck-oven-a - oven
            proofer1-a - proofer
            hot-a - temperature
            r0-a r1-a - rack-count
            baguette1-b baguette2-b brioche-b rye-b - dough
            deck-oven-b convection-oven-b - oven
            proofer1-b - proofer
            moderate-b medium-b hot-b - temperature
            r0-b r1-b r2-b - rack-count)
  (:init
    (shaped sourdough-a) (proofer-free proofer1-a) (bake-temp sourdough-a hot-a) (oven-temp deck-oven-a hot-a)
    (one-more r0-a r1-a) (free-racks deck-oven-a r1-a) (all-racks deck-oven-a r1-a) (proofed baguette1-b)
    (shaped baguette2-b) (mixed brioche-b) (unmixed rye-b) (proofer-free proofer1-b)
    (bake-temp baguette1-b hot-b) (bake-temp baguette2-b hot-b) (bake-temp brioche-b moderate-b) (bake-temp rye-b medium-b)
    (oven-temp deck-oven-b medium-b) (oven-temp convection-oven-b moderate-b) (one-more r0-b r1-b) (one-more r1-b r2-b)
    (free-racks deck-oven-b r2-b) (all-racks deck-oven-b r2-b) (free-racks convection-oven-b r1-b) (all-racks convection-oven-b r1-b))
  (:goal (and (boxed sourdough-a)
              (boxed baguette1-b) (boxed baguette2-b) (boxed brioche-b) (cooling rye-b))))
