(define (problem brewery-p02)
  (:domain brewery)
  (:objects
    ipa stout pilsner - batch
    tun1 - mash-tun
    kettle1 - kettle
    fv1 fv2 - fermenter
    bag1 bag2 bag3 bag4 - hop-bag
    citra fuggle saaz - hop-variety
    ale-yeast lager-yeast - yeast)
  (:init
    (unstarted ipa) (unstarted stout) (unstarted pilsner)
    (vessel-empty tun1) (vessel-clean tun1)
    (vessel-empty kettle1)
    (vessel-empty fv1) (vessel-clean fv1)
    (vessel-empty fv2)
    (bag-of bag1 citra) (bag-of bag2 fuggle) (bag-of bag3 saaz) (bag-of bag4 citra)
    (bag-in-store bag1) (bag-in-store bag2) (bag-in-store bag3) (bag-in-store bag4)
    (recipe-hops ipa citra) (recipe-yeast ipa ale-yeast)
    (recipe-hops stout fuggle) (recipe-yeast stout ale-yeast)
    (recipe-hops pilsner saaz) (recipe-yeast pilsner lager-yeast)
    (yeast-available ale-yeast) (yeast-available lager-yeast))
  (:goal (and (bottled ipa) (bottled stout) (bottled pilsner))))
