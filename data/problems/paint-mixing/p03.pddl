(define (problem paint-mixing-p03)
  (:domain paint-mixing)
  (:objects red-a blue-a yellow-a green-a orange-a purple-a - colour
            tin-blue-a tin-yellow-a - tin
            vat1-a - vat
            can1-a - can
            red-b blue-b yellow-b green-b orange-b purple-b - colour
            tin-r1-b tin-r2-b tin-b1-b tin-b2-b tin-y1-b tin-y2-b tin-y3-b - tin
            vat1-b vat2-b - vat
            can1-b can2-b can3-b can4-b - can)
  (:init
    (base-paint red-a) (base-paint blue-a) (mixes blue-a yellow-a green-a) (mixes yellow-a blue-a green-a)
    (mixes red-a yellow-a orange-a) (mixes yellow-a red-a orange-a) (mixes red-a blue-a purple-a) (mixes blue-a red-a purple-a)
    (tin-colour tin-blue-a blue-a) (tin-full tin-blue-a) (tin-colour tin-yellow-a yellow-a) (tin-full tin-yellow-a)
    (vat-clean vat1-a) (can-empty can1-a) (base-paint red-b) (base-paint blue-b)
    (mixes blue-b yellow-b green-b) (mixes yellow-b blue-b green-b) (mixes red-b yellow-b orange-b) (mixes yellow-b red-b orange-b)
    (mixes red-b blue-b purple-b) (mixes blue-b red-b purple-b) (tin-colour tin-r1-b red-b) (tin-colour tin-r2-b red-b)
    (tin-colour tin-b1-b blue-b) (tin-colour tin-b2-b blue-b) (tin-colour tin-y1-b yellow-b) (tin-colour tin-y2-b yellow-b)
    (tin-colour tin-y3-b yellow-b) (tin-full tin-r1-b) (tin-full tin-r2-b) (tin-full tin-b1-b)
    (tin-full tin-b2-b) (tin-full tin-y1-b) (tin-full tin-y2-b) (tin-full tin-y3-b)
    (vat-clean vat1-b) (vat-dirty vat2-b) (can-empty can1-b) (can-empty can2-b)
    (can-empty can3-b) (can-empty can4-b))
  (:goal (and (can-holds can1-a green-a)
              (can-holds can1-b green-b) (can-holds can2-b orange-b)
              (can-holds can3-b purple-b) (can-holds can4-b yellow-b))))
