(define (problem paint-mixing-p02)
  (:domain paint-mixing)
  (:objects
    red blue yellow green orange purple - colour
    tin-r1 tin-r2 tin-b1 tin-b2 tin-y1 tin-y2 tin-y3 - tin
    vat1 vat2 - vat
    can1 can2 can3 can4 - can)
  (:init
    (base-paint red) (base-paint blue)
    (mixes blue yellow green) (mixes yellow blue green)
    (mixes red yellow orange) (mixes yellow red orange)
    (mixes red blue purple) (mixes blue red purple)
    (tin-colour tin-r1 red) (tin-colour tin-r2 red)
    (tin-colour tin-b1 blue) (tin-colour tin-b2 blue)
    (tin-colour tin-y1 yellow) (tin-colour tin-y2 yellow) (tin-colour tin-y3 yellow)
    (tin-full tin-r1) (tin-full tin-r2) (tin-full tin-b1) (tin-full tin-b2)
    (tin-full tin-y1) (tin-full tin-y2) (tin-full tin-y3)
    (vat-clean vat1) (vat-dirty vat2)
    (can-empty can1) (can-empty can2) (can-empty can3) (can-empty can4))
  (:goal (and (can-holds can1 green) (can-holds can2 orange)
              (can-holds can3 purple) (can-holds can4 yellow))))
