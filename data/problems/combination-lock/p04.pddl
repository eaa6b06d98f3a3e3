(define (problem combination-lock-p04)
  (:domain combination-lock)
  (:objects left middle right - dial
            d0 d1 d2 d3 d4 d5 d6 d7 - digit)
  (:init
    (locked)
    (shows left d0) (shows middle d4) (shows right d7)
    (secret left d2) (secret middle d5) (secret right d6)
    ; a dial without wrap-around: d7 does not turn up to d0
    (next-digit d0 d1) (next-digit d1 d2) (next-digit d2 d3) (next-digit d3 d4)
    (next-digit d4 d5) (next-digit d5 d6) (next-digit d6 d7))
  (:goal (open)))
