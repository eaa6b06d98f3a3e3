(define (problem laundry-p00)
  (:domain laundry)
  (:objects shirt - garment washer1 - washer dryer1 - dryer
            pod1 - detergent-pod wardrobe - storage)
  (:init (dirty shirt) (in-basket shirt) (pod-available pod1)
         (belongs-in shirt wardrobe))
  (:goal (stored shirt wardrobe)))
