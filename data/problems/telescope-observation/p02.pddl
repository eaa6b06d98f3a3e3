(define (problem telescope-observation-p02)
  (:domain telescope-observation)
  (:objects
    park vega andromeda orion-nebula saturn - target
    red green blue - filter
    s0 s1 s2 - slots)
  (:init
    (observable vega) (observable andromeda) (observable orion-nebula) (observable saturn)
    (bright vega) (bright saturn)
    (pointing park)
    (dome-closed)
    (filter-in green) (flat-frame green)
    (one-less s0 s1) (one-less s1 s2) (buffer-free s2))
  (:goal (and (archived andromeda red) (archived orion-nebula red)
              (archived saturn green)
              (dome-closed))))
