(define (problem ferry-crossing-p02)
  (:domain ferry-crossing)
  (:objects willow
            red-car blue-car green-car)
  (:init (ferry-at willow east-bank) (ramp-up willow) (deck-empty willow)
         (route west-bank east-bank) (route east-bank west-bank)
         (car-at red-car west-bank) (car-at blue-car west-bank) (car-at green-car east-bank))
  (:goal (and (car-at red-car east-bank) (car-at blue-car east-bank)
              (car-at green-car west-bank))))
