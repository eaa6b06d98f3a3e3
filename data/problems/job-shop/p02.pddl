(define (problem job-shop-p02)
  (:domain job-shop)
  (:objects j1 j2 j3 - job
            o11 o12 o13 o21 o22 o31 o32 - operation
            lathe mill drill - machine
            turning milling boring threading - setup)
  (:init (precedes o11 o12) (precedes o12 o13) (final-step o13 j1)
         (precedes o21 o22) (final-step o22 j2)
         (precedes o31 o32) (final-step o32 j3)
         (runs-on o11 lathe) (needs-setup o11 turning)
         (runs-on o12 mill) (needs-setup o12 milling)
         (runs-on o13 drill) (needs-setup o13 boring)
         (runs-on o21 mill) (needs-setup o21 milling)
         (runs-on o22 lathe) (needs-setup o22 threading)
         (runs-on o31 drill) (needs-setup o31 boring)
         (runs-on o32 lathe) (needs-setup o32 turning)
         (configured lathe turning) (configured mill milling) (configured drill threading)
         (ready o11) (ready o21) (ready o31))
  (:goal (and (job-complete j1) (job-complete j2) (job-complete j3))))
