(define (problem escape-room-p01)
  (:domain escape-room)
  (:objects door-area desk-area - spot
            drawer - container
            exit-key - key)
  (:init
    (at door-area)
    (connected door-area desk-area) (connected desk-area door-area)
    (container-at drawer desk-area) (inside exit-key drawer)
    (exit-at door-area) (opens-exit exit-key))
  (:goal (escaped)))
