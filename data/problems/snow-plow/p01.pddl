(define (problem snow-plow-p01)
  (:domain snow-plow)
  (:objects blizzard - plow
            sedan - car
            depot village farm - junction)
  (:init (plow-at blizzard depot) (salt-depot depot)
         (car-at sedan village)
         (road depot village) (road village depot) (road village farm) (road farm village)
         (snowed village farm) (snowed farm village))
  (:goal (car-at sedan farm)))
