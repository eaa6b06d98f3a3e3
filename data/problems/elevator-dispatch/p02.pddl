(define (problem elevator-dispatch-p02)
  (:domain elevator-dispatch)
  (:objects f1 f2 f3 - floor
            ann bob - passenger)
  (:init (lift-at f1)
         (next-up f0 f1) (next-up f1 f2) (next-up f2 f3)
         (waiting ann f0) (destination ann f3)
         (waiting bob f2) (destination bob f0))
  (:goal (and (served ann) (served bob) (not (door-open)))))
