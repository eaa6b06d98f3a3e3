(define (problem ferry-crossing-p03)
  (:domain ferry-crossing)
  (:objects willow heron
            red-car blue-car green-car white-car black-car
            island)
  (:init (ferry-at willow west-bank) (ramp-up willow) (deck-empty willow)
         (ferry-at heron island) (ramp-down heron) (deck-empty heron)
         (route west-bank east-bank) (route east-bank west-bank)
         (route east-bank island) (route island east-bank)
         (car-at red-car west-bank) (car-at blue-car west-bank) (car-at green-car east-bank)
         (car-at white-car island) (car-at black-car island))
  (:goal (and (car-at red-car island) (car-at blue-car east-bank)
              (car-at green-car west-bank) (car-at white-car west-bank)
              (car-at black-car east-bank))))
