(define (problem water-network-p03)
  (:domain water-network)
  (:objects spring-a reservoir-a - tank
            main-a - pipe
            l0-a l1-a l2-a - level
            well-b tower-b east-basin-b west-basin-b - tank
            riser-b east-main-b west-main-b bypass-b - pipe
            booster-b - pump
            l0-b l1-b l2-b l3-b - level)
  (:init
    (next l0-a l1-a) (next l1-a l2-a) (connects main-a spring-a reservoir-a) (downhill main-a)
    (contaminated spring-a) (water-level spring-a l2-a) (water-level reservoir-a l0-a) (next l0-b l1-b)
    (next l1-b l2-b) (next l2-b l3-b) (connects riser-b well-b tower-b) (pump-on-pipe booster-b riser-b)
    (connects east-main-b tower-b east-basin-b) (downhill east-main-b) (connects west-main-b tower-b west-basin-b) (downhill west-main-b)
    (connects bypass-b east-basin-b west-basin-b) (downhill bypass-b) (valve-stuck riser-b) (valve-stuck west-main-b)
    (contaminated tower-b) (water-level well-b l3-b) (water-level tower-b l0-b) (water-level east-basin-b l0-b)
    (water-level west-basin-b l0-b))
  (:goal (and (water-level reservoir-a l2-a)
              (water-level east-basin-b l1-b) (water-level west-basin-b l2-b) (water-level tower-b l0-b)
              (not (pump-running booster-b))
              (not (valve-open riser-b)) (not (valve-open east-main-b)))))
