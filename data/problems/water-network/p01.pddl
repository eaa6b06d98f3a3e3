(define (problem water-network-p01)
  (:domain water-network)
  (:objects
    spring reservoir - tank
    main - pipe
    l0 l1 l2 - level)
  (:init
    (next l0 l1) (next l1 l2)
    (connects main spring reservoir) (downhill main)
    (contaminated spring)
    (water-level spring l2) (water-level reservoir l0))
  (:goal (water-level reservoir l2)))
