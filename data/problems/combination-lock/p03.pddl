(define (problem combination-lock-p03)
  (:domain combination-lock)
  (:objects w1 w2 w3 w4 - dial
            d0 d1 d2 d3 d4 d5 d6 d7 - digit)
  (:init
    (locked)
    (shows w1 d0) (shows w2 d1) (shows w3 d2) (shows w4 d3)
    (secret w1 d5) (secret w2 d7) (secret w3 d1) (secret w4 d3)
    (next-digit d0 d1) (next-digit d1 d2) (next-digit d2 d3) (next-digit d3 d4)
    (next-digit d4 d5) (next-digit d5 d6) (next-digit d6 d7) (next-digit d7 d0))
  (:goal (and (locked) (secret w1 d2) (secret w2 d4) (secret w3 d6) (secret w4 d0)
              (shows w1 d0) (shows w2 d1) (shows w3 d2) (shows w4 d3))))
