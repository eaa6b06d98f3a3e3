(define (problem ferry-crossing-p01)
  (:domain ferry-crossing)
  (:objects willow
            red-car)
  (:init (ferry-at willow west-bank) (ramp-down willow) (deck-empty willow)
         (route west-bank east-bank) (route east-bank west-bank)
         (car-at red-car west-bank))
  (:goal (car-at red-car east-bank)))
