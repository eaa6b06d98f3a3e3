(define (problem laundry-p02)
  (:domain laundry)
  (:objects jeans sweater towel - garment washer1 - washer dryer1 - dryer
            pod1 pod2 pod3 - detergent-pod rack1 - rack
            dresser linen-closet - storage)
  (:init (dirty jeans) (in-basket jeans)
         (dirty sweater) (delicate sweater) (in-basket sweater)
         (dirty towel) (in-basket towel)
         (pod-available pod1) (pod-available pod2) (pod-available pod3)
         (belongs-in jeans dresser) (belongs-in sweater dresser)
         (belongs-in towel linen-closet))
  (:goal (and (stored jeans dresser) (stored sweater dresser)
              (stored towel linen-closet))))
