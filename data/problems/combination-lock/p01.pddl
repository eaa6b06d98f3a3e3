(define (problem combination-lock-p01)
  (:domain combination-lock)
  (:objects left right - dial
            d0 d1 d2 d3 - digit)
  (:init
    (locked)
    (shows left d0) (shows right d1)
    (secret left d1) (secret right d3)
    (next-digit d0 d1) (next-digit d1 d2) (next-digit d2 d3) (next-digit d3 d0))
  (:goal (open)))
