(define (problem vaccine-cold-chain-p03)
  (:domain vaccine-cold-chain)
  (:objects depot-a clinic-a - location
            van1-a - van
            box1-a - box
            depot-freezer-a clinic-freezer-a - freezer
            k0-a k1-a k2-a - level
            depot-b hub-b north-clinic-b east-clinic-b south-clinic-b - location
            van1-b van2-b - van
            box1-b box2-b box3-b box4-b - box
            depot-freezer-b hub-freezer-b north-freezer-b east-freezer-b south-freezer-b - freezer
            k0-b k1-b k2-b k3-b - level)
  (:init
    (road depot-a clinic-a) (road clinic-a depot-a) (next k0-a k1-a) (next k1-a k2-a)
    (van-at van1-a depot-a) (warm van1-a) (coolant van1-a k2-a) (full-coolant k2-a)
    (charging-point depot-a) (van-space van1-a k1-a) (van-capacity van1-a k1-a) (freezer-at depot-freezer-a depot-a)
    (freezer-at clinic-freezer-a clinic-a) (in-freezer box1-a depot-freezer-a) (freezer-space depot-freezer-a k1-a) (freezer-space clinic-freezer-a k2-a)
    (road depot-b hub-b) (road hub-b depot-b) (road hub-b north-clinic-b) (road north-clinic-b hub-b)
    (road hub-b east-clinic-b) (road east-clinic-b hub-b) (road east-clinic-b south-clinic-b) (road south-clinic-b east-clinic-b)
    (next k0-b k1-b) (next k1-b k2-b) (next k2-b k3-b) (van-at van1-b depot-b)
    (warm van1-b) (coolant van1-b k1-b) (van-space van1-b k2-b) (van-capacity van1-b k2-b)
    (van-at van2-b hub-b) (warm van2-b) (coolant van2-b k2-b) (van-space van2-b k1-b)
    (van-capacity van2-b k1-b) (full-coolant k3-b) (charging-point depot-b) (charging-point hub-b)
    (freezer-at depot-freezer-b depot-b) (freezer-at hub-freezer-b hub-b) (freezer-at north-freezer-b north-clinic-b) (freezer-at east-freezer-b east-clinic-b)
    (freezer-at south-freezer-b south-clinic-b) (in-freezer box1-b depot-freezer-b) (in-freezer box2-b depot-freezer-b) (in-freezer box3-b depot-freezer-b)
    (in-freezer box4-b hub-freezer-b) (freezer-space depot-freezer-b k0-b) (freezer-space hub-freezer-b k1-b) (freezer-space north-freezer-b k1-b)
    (freezer-space east-freezer-b k1-b) (freezer-space south-freezer-b k2-b))
  (:goal (and (in-freezer box1-a clinic-freezer-a)
              (in-freezer box1-b north-freezer-b) (in-freezer box2-b south-freezer-b)
              (in-freezer box3-b south-freezer-b) (in-freezer box4-b east-freezer-b)
              (warm van1-b) (warm van2-b))))
