(define (problem dual-arm-sorting-p01)
  (:domain dual-arm-sorting)
  (:objects left-arm right-arm - arm
            intake middle outbox - zone
            bolt - item)
  (:init (arm-at left-arm intake) (arm-at right-arm outbox)
         (reaches left-arm intake) (reaches left-arm middle)
         (reaches right-arm middle) (reaches right-arm outbox)
         (adjacent intake middle) (adjacent middle intake)
         (adjacent middle outbox) (adjacent outbox middle)
         (item-at bolt intake)
         (arm-free left-arm) (arm-free right-arm)
         (can-grip left-arm bolt) (can-grip right-arm bolt))
  (:goal (item-at bolt outbox)))
