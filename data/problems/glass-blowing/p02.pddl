(define (problem glass-blowing-p02)
  (:domain glass-blowing)
  (:objects
    bowl goblet bottle - piece
    pipe1 pipe2 - blowpipe
    molten warm stiff cold - heat
    g0 g1 g2 - glass-amount
    cullet1 cullet2 - cullet
    lehr1 - lehr)
  (:init
    (unstarted bowl) (unstarted goblet) (unstarted bottle)
    (pipe-free pipe1) (pipe-free pipe2)
    (cooler molten warm) (cooler warm stiff) (cooler stiff cold)
    (hottest molten)
    (below-hottest warm) (below-hottest stiff) (below-hottest cold)
    (workable molten) (workable warm)
    (less-glass g0 g1) (less-glass g1 g2)
    (furnace-glass g1)
    (cullet-unused cullet1) (cullet-unused cullet2)
    (lehr-free lehr1))
  (:goal (and (annealed bowl) (annealed goblet) (annealed bottle))))
