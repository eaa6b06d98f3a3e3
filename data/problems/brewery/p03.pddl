(define (problem brewery-p03)
  (:domain brewery)
  (:objects pale-ale-a - batch
            tun1-a - mash-tun
            kettle1-a - kettle
            fv1-a - fermenter
            bag1-a - hop-bag
            cascade-a - hop-variety
            ale-yeast-a - yeast
            ipa-b stout-b pilsner-b - batch
            tun1-b - mash-tun
            kettle1-b - kettle
            fv1-b fv2-b - fermenter
            bag1-b bag2-b bag3-b bag4-b - hop-bag
            citra-b fuggle-b saaz-b - hop-variety
            ale-yeast-b lager-yeast-b - yeast)
  (:init
    (unstarted pale-ale-a) (vessel-empty tun1-a) (vessel-clean tun1-a) (vessel-empty kettle1-a)
    (vessel-clean kettle1-a) (vessel-empty fv1-a) (vessel-clean fv1-a) (bag-of bag1-a cascade-a)
    (bag-in-store bag1-a) (recipe-hops pale-ale-a cascade-a) (recipe-yeast pale-ale-a ale-yeast-a) (yeast-available ale-yeast-a)
    (unstarted ipa-b) (unstarted stout-b) (unstarted pilsner-b) (vessel-empty tun1-b)
    (vessel-clean tun1-b) (vessel-empty kettle1-b) (vessel-empty fv1-b) (vessel-clean fv1-b)
    (vessel-empty fv2-b) (bag-of bag1-b citra-b) (bag-of bag2-b fuggle-b) (bag-of bag3-b saaz-b)
    (bag-of bag4-b citra-b) (bag-in-store bag1-b) (bag-in-store bag2-b) (bag-in-store bag3-b)
    (bag-in-store bag4-b) (recipe-hops ipa-b citra-b) (recipe-yeast ipa-b ale-yeast-b) (recipe-hops stout-b fuggle-b)
    (recipe-yeast stout-b ale-yeast-b) (recipe-hops pilsner-b saaz-b) (recipe-yeast pilsner-b lager-yeast-b) (yeast-available ale-yeast-b)
    (yeast-available lager-yeast-b))
  (:goal (and (bottled pale-ale-a)
              (bottled ipa-b) (bottled stout-b) (bottled pilsner-b))))
