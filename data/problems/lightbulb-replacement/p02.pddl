(define (problem lightbulb-replacement-p02)
  (:domain lightbulb-replacement)
  (:objects kitchen hallway cellar - room
            kitchen-lamp - fixture old-bulb spare1 - bulb
            downstairs - circuit stepladder - ladder)
  (:init (person-at kitchen)
         (door kitchen hallway) (door hallway kitchen)
         (door hallway cellar) (door cellar hallway)
         (fixture-in kitchen-lamp kitchen) (on-circuit kitchen-lamp downstairs)
         (breaker-in downstairs cellar) (power-on downstairs)
         (ladder-stored stepladder hallway) (spare-in spare1 cellar) (bin-in kitchen)
         (bulb-in old-bulb kitchen-lamp) (fitted kitchen-lamp) (broken old-bulb))
  (:goal (and (working kitchen-lamp) (power-on downstairs))))
