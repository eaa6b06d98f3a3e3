(define (problem assembly-line-p01)
  (:domain assembly-line)
  (:objects
    lamp - product
    base-st shade-st - station
    socket shade - component
    c0 c1 - count)
  (:init
    (one-more c0 c1)
    (waiting lamp)
    (line-start base-st) (line-end shade-st)
    (next-station base-st shade-st)
    (station-free base-st) (station-free shade-st)
    (fits base-st socket) (fits shade-st shade)
    (stock base-st c1) (stock shade-st c1)
    (needs lamp socket) (needs lamp shade))
  (:goal (and (shipped lamp) (installed lamp socket) (installed lamp shade))))
