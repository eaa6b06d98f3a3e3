(define (problem greenhouse-climate-p00)
  (:domain greenhouse-climate)
  (:objects
    nursery - zone
    heater1 - heater
    vent1 - vent
    sprinkler1 - sprinkler
    seedlings - crop
    cold mild warm - temperature
    dry damp wet - moisture
    w0 w1 - water-amount)
  (:init
    (heater-in heater1 nursery) (vent-in vent1 nursery) (sprinkler-in sprinkler1 nursery)
    (warmer cold mild) (warmer mild warm)
    (wetter dry damp) (wetter damp wet)
    (more-water w0 w1)
    (tank-holds w1)
    (grows-in seedlings nursery)
    (likes-temp seedlings warm)
    (likes-moisture seedlings damp)
    (temp nursery warm) (soil-moisture nursery dry))
  (:goal (in-range nursery)))
