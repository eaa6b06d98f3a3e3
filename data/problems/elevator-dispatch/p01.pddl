(define (problem elevator-dispatch-p01)
  (:domain elevator-dispatch)
  (:objects f1 f2 - floor
            ann - passenger)
  (:init (lift-at f0) (next-up f0 f1) (next-up f1 f2)
         (waiting ann f0) (destination ann f2))
  (:goal (served ann)))
