(define (problem greenhouse-climate-p02)
  (:domain greenhouse-climate)
  (:objects
    tropical desert herbs - zone
    heat-t heat-h - heater
    vent-t vent-d vent-h - vent
    spr-t spr-h - sprinkler
    barrel1 barrel2 - barrel
    orchids cacti basil - crop
    cold cool mild warm hot - temperature
    arid dry damp wet soaked - moisture
    w0 w1 w2 w3 - water-amount)
  (:init
    (heater-in heat-t tropical) (heater-in heat-h herbs)
    (vent-in vent-t tropical) (vent-in vent-d desert) (vent-in vent-h herbs)
    (sprinkler-in spr-t tropical) (sprinkler-in spr-h herbs)
    (warmer cold cool) (warmer cool mild) (warmer mild warm) (warmer warm hot)
    (wetter arid dry) (wetter dry damp) (wetter damp wet) (wetter wet soaked)
    (more-water w0 w1) (more-water w1 w2) (more-water w2 w3)
    (tank-holds w1)
    (barrel-full barrel1) (barrel-full barrel2)
    (grows-in orchids tropical) (grows-in cacti desert) (grows-in basil herbs)
    (likes-temp orchids hot) (likes-temp orchids warm) (likes-moisture orchids wet)
    (likes-temp cacti warm) (likes-temp cacti mild) (likes-moisture cacti arid)
    (likes-temp basil mild) (likes-moisture basil damp)
    (temp tropical mild) (soil-moisture tropical dry)
    (temp desert hot) (soil-moisture desert damp)
    (temp herbs cold) (soil-moisture herbs damp))
  (:goal (and (in-range tropical) (in-range desert) (in-range herbs))))
