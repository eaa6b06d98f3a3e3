(define (problem brewery-p01)
  (:domain brewery)
  (:objects
    pale-ale - batch
    tun1 - mash-tun
    kettle1 - kettle
    fv1 - fermenter
    bag1 - hop-bag
    cascade - hop-variety
    ale-yeast - yeast)
  (:init
    (unstarted pale-ale)
    (vessel-empty tun1) (vessel-clean tun1)
    (vessel-empty kettle1) (vessel-clean kettle1)
    (vessel-empty fv1) (vessel-clean fv1)
    (bag-of bag1 cascade) (bag-in-store bag1)
    (recipe-hops pale-ale cascade) (recipe-yeast pale-ale ale-yeast)
    (yeast-available ale-yeast))
  (:goal (bottled pale-ale)))
