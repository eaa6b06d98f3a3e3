(define (problem bus-routing-p02)
  (:domain bus-routing)
  (:objects line1 line2 - bus
            depot square library college market pool - stop
            eve finn gus hana - passenger
            s0 s1 s2 - seat-count)
  (:init (one-more s0 s1) (one-more s1 s2)
         (bus-at line1 depot) (free-seats line1 s1)
         (route-next line1 depot square) (route-next line1 square library)
         (route-next line1 library depot)
         (bus-at line2 college) (free-seats line2 s2)
         (route-next line2 college library) (route-next line2 library market)
         (route-next line2 market pool) (route-next line2 pool college)
         (passenger-at eve square) (passenger-at finn depot)
         (passenger-at gus market) (passenger-at hana library))
  (:goal (and (passenger-at eve pool) (passenger-at finn library)
              (passenger-at gus college) (passenger-at hana square))))
