(define (problem glass-blowing-p00)
  (:domain glass-blowing)
  (:objects
    vase - piece
    pipe1 - blowpipe
    molten warm - heat
    g0 g1 - glass-amount
    lehr1 - lehr)
  (:init
    (unstarted vase)
    (pipe-free pipe1)
    (cooler molten warm)
    (hottest molten)
    (below-hottest warm)
    (workable molten)
    (workable warm)
    (less-glass g0 g1) (furnace-glass g1)
    (lehr-free lehr1))
  (:goal (blown vase)))
