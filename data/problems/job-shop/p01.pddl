(define (problem job-shop-p01)
  (:domain job-shop)
  (:objects j1 - job
            o11 o12 - operation
            lathe mill - machine
            turning milling - setup)
  (:init (precedes o11 o12) (final-step o12 j1)
         (runs-on o11 lathe) (runs-on o12 mill)
         (needs-setup o11 turning) (needs-setup o12 milling)
         (configured lathe turning) (configured mill turning)
         (ready o11))
  (:goal (job-complete j1)))
