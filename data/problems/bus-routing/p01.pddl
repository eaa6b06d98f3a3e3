(define (problem bus-routing-p01)
  (:domain bus-routing)
  (:objects line1 - bus
            depot square library - stop
            eve - passenger
            s0 s1 s2 - seat-count)
  (:init (bus-at line1 depot) (free-seats line1 s2) (one-more s0 s1) (one-more s1 s2)
         (route-next line1 depot square) (route-next line1 square library)
         (route-next line1 library depot)
         (passenger-at eve square))
  (:goal (passenger-at eve library)))
