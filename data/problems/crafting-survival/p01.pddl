(define (problem crafting-survival-p01)
  (:domain crafting-survival)
  (:objects clearing forest - place
            wood - resource
            axe - tool
            l0 l1 l2 l3 - level)
  (:init
    (at forest)
    (path clearing forest) (path forest clearing)
    (yields forest wood) (by-hand wood)
    (stock wood l0)
    (succ l0 l1) (succ l1 l2) (succ l2 l3)
    (campsite clearing)
    (wall-material wood) (roof-material wood)
    (wall-height l0) (full-height l1))
  (:goal (sheltered)))
