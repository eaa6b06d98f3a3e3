(define (problem telescope-observation-p00)
  (:domain telescope-observation)
  (:objects
    vega - target
    visual - filter
    s0 s1 - slots)
  (:init
    (observable vega) (bright vega) (pointing vega)
    (dome-closed)
    (filter-in visual) (flat-frame visual)
    (one-less s0 s1) (buffer-free s1))
  (:goal (and (dome-open) (focused))))
