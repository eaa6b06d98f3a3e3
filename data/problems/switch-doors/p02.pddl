(define (problem switch-doors-p02)
  (:domain switch-doors)
  (:objects start west north east treasury exit - room
            d-sw d-sn d-ne d-et d-wx - door
            lever-a lever-b - lever
            bell - button
            emerald - gem)
  (:init
    (in start)
    (connects d-sw start west) (connects d-sw west start)
    (connects d-sn start north) (connects d-sn north start)
    (connects d-ne north east) (connects d-ne east north)
    (connects d-et east treasury) (connects d-et treasury east)
    (connects d-wx west exit) (connects d-wx exit west)
    (lever-in lever-a start) (lever-in lever-b north)
    (opens-when-up lever-a d-sn) (opens-when-down lever-a d-sw)
    (opens-when-up lever-b d-ne) (opens-when-down lever-b d-sn)
    (button-in bell east)
    (toggles bell d-et) (toggles bell d-wx)
    (open d-sw)
    (gem-in emerald treasury))
  (:goal (and (holding emerald) (in exit))))
