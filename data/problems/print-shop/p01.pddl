(define (problem print-shop-p01)
  (:domain print-shop)
  (:objects letter flyer - job
            office-laser - printer
            plain glossy - paper-kind
            ream-a - ream
            toner-a - cartridge
            l0 l1 l2 l3 - level)
  (:init (less l0 l1) (less l1 l2) (less l2 l3)
         (empty-level l0) (full-level l3)
         (queued letter) (mono-job letter) (needs-paper letter plain)
         (queued flyer) (mono-job flyer) (needs-paper flyer plain)
         (tray-kind office-laser glossy) (tray-level office-laser l0)
         (ink-level office-laser l1)
         (ream-of ream-a plain) (ream-in-stock ream-a)
         (cartridge-fits toner-a office-laser) (cartridge-in-stock toner-a))
  (:goal (and (printed letter) (printed flyer))))
