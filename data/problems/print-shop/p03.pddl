(define (problem print-shop-p03)
  (:domain print-shop)
  (:objects letter-a flyer-a - job
            office-laser-a - printer
            plain-a glossy-a - paper-kind
            ream-a-a - ream
            toner-a-a - cartridge
            l0-a l1-a l2-a l3-a - level
            letter-b invoice-b memo-b poster-b brochure-b photo-b menu-b - job
            office-laser-b studio-inkjet-b - printer
            plain-b glossy-b cardstock-b - paper-kind
            ream-a-b ream-b-b ream-c-b ream-d-b - ream
            toner-a-b ink-b-b - cartridge
            l0-b l1-b l2-b l3-b - level)
  (:init
    (less l0-a l1-a) (less l1-a l2-a) (less l2-a l3-a) (empty-level l0-a)
    (full-level l3-a) (queued letter-a) (mono-job letter-a) (needs-paper letter-a plain-a)
    (queued flyer-a) (mono-job flyer-a) (needs-paper flyer-a plain-a) (tray-kind office-laser-a glossy-a)
    (tray-level office-laser-a l0-a) (ink-level office-laser-a l1-a) (ream-of ream-a-a plain-a) (ream-in-stock ream-a-a)
    (cartridge-fits toner-a-a office-laser-a) (cartridge-in-stock toner-a-a) (less l0-b l1-b) (less l1-b l2-b)
    (less l2-b l3-b) (empty-level l0-b) (full-level l3-b) (queued letter-b)
    (mono-job letter-b) (needs-paper letter-b plain-b) (queued invoice-b) (mono-job invoice-b)
    (needs-paper invoice-b plain-b) (queued memo-b) (mono-job memo-b) (needs-paper memo-b plain-b)
    (queued poster-b) (color-job poster-b) (needs-paper poster-b glossy-b) (queued brochure-b)
    (color-job brochure-b) (needs-paper brochure-b glossy-b) (queued photo-b) (color-job photo-b)
    (needs-paper photo-b glossy-b) (queued menu-b) (color-job menu-b) (needs-paper menu-b cardstock-b)
    (color-printer studio-inkjet-b) (tray-kind office-laser-b plain-b) (tray-level office-laser-b l1-b) (ink-level office-laser-b l3-b)
    (tray-kind studio-inkjet-b glossy-b) (tray-level studio-inkjet-b l2-b) (ink-level studio-inkjet-b l2-b) (ream-of ream-a-b plain-b)
    (ream-in-stock ream-a-b) (ream-of ream-b-b glossy-b) (ream-in-stock ream-b-b) (ream-of ream-c-b cardstock-b)
    (ream-in-stock ream-c-b) (ream-of ream-d-b plain-b) (ream-in-stock ream-d-b) (cartridge-fits toner-a-b office-laser-b)
    (cartridge-in-stock toner-a-b) (cartridge-fits ink-b-b studio-inkjet-b) (cartridge-in-stock ink-b-b))
  (:goal (and (printed letter-a) (printed flyer-a)
              (printed letter-b) (printed invoice-b) (printed memo-b)
              (printed poster-b) (printed brochure-b) (printed photo-b) (printed menu-b))))
