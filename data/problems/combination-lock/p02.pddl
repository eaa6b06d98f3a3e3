(define (problem combination-lock-p02)
  (:domain combination-lock)
  (:objects first second third - dial
            d0 d1 d2 d3 d4 d5 - digit)
  (:init
    (locked)
    (shows first d0) (shows second d1) (shows third d2)
    (secret first d2) (secret second d5) (secret third d0)
    (next-digit d0 d1) (next-digit d1 d2) (next-digit d2 d3)
    (next-digit d3 d4) (next-digit d4 d5) (next-digit d5 d0))
  (:goal (and (locked) (secret first d1) (secret second d3) (secret third d4))))
