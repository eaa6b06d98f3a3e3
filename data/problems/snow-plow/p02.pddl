(define (problem snow-plow-p02)
  (:domain snow-plow)
  (:objects blizzard - plow
            sedan truck - car
            depot village farm school bridge - junction)
  (:init (plow-at blizzard depot) (salt-depot depot)
         (car-at sedan village) (car-at truck school)
         (road depot village) (road village depot) (road village farm) (road farm village)
         (road village bridge) (road bridge village) (road bridge school) (road school bridge)
         (snowed village farm) (snowed farm village) (snowed village bridge)
         (snowed bridge village) (snowed bridge school) (snowed school bridge)
         (icy bridge))
  (:goal (and (car-at sedan school) (car-at truck farm) (plow-at blizzard depot)
              (not (blade-down blizzard)))))
