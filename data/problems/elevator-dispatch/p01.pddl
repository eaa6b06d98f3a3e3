(define (problem elevator-dispatch-p01)
  (:domain elevator-dispatch)
  (:objects ground first second - floor
            ann - passenger)
  (:init (lift-at ground) (next-up ground first) (next-up first second)
         (waiting ann ground) (destination ann second))
  (:goal (served ann)))
