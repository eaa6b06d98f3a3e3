(define (problem paint-mixing-p01)
  (:domain paint-mixing)
  (:objects
    red blue yellow green orange purple - colour
    tin-blue tin-yellow - tin
    vat1 - vat
    can1 - can)
  (:init
    (base-paint red) (base-paint blue)
    (mixes blue yellow green) (mixes yellow blue green)
    (mixes red yellow orange) (mixes yellow red orange)
    (mixes red blue purple) (mixes blue red purple)
    (tin-colour tin-blue blue) (tin-full tin-blue)
    (tin-colour tin-yellow yellow) (tin-full tin-yellow)
    (vat-clean vat1)
    (can-empty can1))
  (:goal (can-holds can1 green)))
