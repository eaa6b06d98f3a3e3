(define (problem water-network-p02)
  (:domain water-network)
  (:objects
    well tower east-basin west-basin - tank
    riser east-main west-main bypass - pipe
    booster - pump
    l0 l1 l2 l3 - level)
  (:init
    (next l0 l1) (next l1 l2) (next l2 l3)
    (connects riser well tower) (pump-on-pipe booster riser)
    (connects east-main tower east-basin) (downhill east-main)
    (connects west-main tower west-basin) (downhill west-main)
    (connects bypass east-basin west-basin) (downhill bypass)
    (valve-stuck riser) (valve-stuck west-main)
    (contaminated tower)
    (water-level well l3) (water-level tower l0)
    (water-level east-basin l0) (water-level west-basin l0))
  (:goal (and (water-level east-basin l1) (water-level west-basin l2) (water-level tower l0)
              (not (pump-running booster))
              (not (valve-open riser)) (not (valve-open east-main)))))
