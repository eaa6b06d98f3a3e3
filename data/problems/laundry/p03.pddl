(define (problem laundry-p03)
  (:domain laundry)
  (:objects blouse socks sheet pillowcase scarf - garment
            washer1 washer2 - washer dryer1 - dryer
            pod1 pod2 pod3 pod4 pod5 - detergent-pod rack1 - rack
            wardrobe drawer linen-closet - storage)
  (:init (dirty blouse) (delicate blouse) (in-basket blouse)
         (dirty socks) (in-basket socks)
         (dirty sheet) (in-basket sheet)
         (dirty pillowcase) (in-machine pillowcase washer2) (occupied washer2)
         (in-basket scarf) (delicate scarf) (wet scarf)
         (pod-available pod1) (pod-available pod2) (pod-available pod3)
         (pod-available pod4) (pod-available pod5)
         (belongs-in blouse wardrobe) (belongs-in scarf wardrobe)
         (belongs-in socks drawer)
         (belongs-in sheet linen-closet) (belongs-in pillowcase linen-closet))
  (:goal (and (stored blouse wardrobe) (stored socks drawer)
              (stored sheet linen-closet) (stored pillowcase linen-closet)
              (stored scarf wardrobe))))
