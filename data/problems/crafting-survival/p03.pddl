(define (problem crafting-survival-p03)
  (:domain crafting-survival)
  (:objects beach shack thicket pinewood creek cliffs meadow - place
            sticks logs flint stone reeds - resource
            stone-axe pickaxe - tool
            l0 l1 l2 l3 l4 - level)
  (:init
    (at beach)
    (path beach shack) (path shack beach) (path shack thicket) (path thicket shack)
    (path thicket pinewood) (path pinewood thicket) (path beach creek) (path creek beach)
    (path creek cliffs) (path cliffs creek) (path shack meadow) (path meadow shack)
    (yields thicket sticks) (yields pinewood logs) (yields creek flint)
    (yields cliffs stone) (yields meadow reeds)
    (by-hand sticks) (by-hand flint) (by-hand reeds)
    (needs-tool logs stone-axe) (needs-tool stone pickaxe)
    (stock sticks l0) (stock logs l0) (stock flint l0) (stock stone l0) (stock reeds l0)
    (succ l0 l1) (succ l1 l2) (succ l2 l3) (succ l3 l4)
    (recipe stone-axe sticks flint) (recipe pickaxe logs flint)
    (workbench shack) (campsite beach)
    (wall-material stone) (wall-material logs) (roof-material reeds)
    (wall-height l0) (full-height l3))
  (:goal (and (sheltered) (has pickaxe))))
