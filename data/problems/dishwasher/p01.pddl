(define (problem dishwasher-p01)
  (:domain dishwasher)
  (:objects mug bowl - dish top-rack - rack dw - machine tab1 - tablet
            s0 s1 s2 - slots)
  (:init (soiled mug) (on-counter mug) (soiled bowl) (on-counter bowl)
         (fits mug top-rack) (fits bowl top-rack) (rack-of top-rack dw)
         (free-slots top-rack s2) (slot-step s0 s1) (slot-step s1 s2)
         (door-open dw) (tablet-unused tab1))
  (:goal (and (clean mug) (clean bowl) (door-closed dw))))
