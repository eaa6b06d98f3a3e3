(define (problem crafting-survival-p02)
  (:domain crafting-survival)
  (:objects camp woods river quarry - place
            wood flint stone - resource
            pickaxe - tool
            l0 l1 l2 l3 l4 - level)
  (:init
    (at camp)
    (path camp woods) (path woods camp) (path camp river) (path river camp)
    (path river quarry) (path quarry river)
    (yields woods wood) (yields river flint) (yields quarry stone)
    (by-hand wood) (by-hand flint) (needs-tool stone pickaxe)
    (stock wood l0) (stock flint l0) (stock stone l0)
    (succ l0 l1) (succ l1 l2) (succ l2 l3) (succ l3 l4)
    (recipe pickaxe wood flint)
    (workbench camp) (campsite camp)
    (wall-material stone) (roof-material wood)
    (wall-height l0) (full-height l2))
  (:goal (sheltered)))
