(define (problem lightbulb-replacement-p01)
  (:domain lightbulb-replacement)
  (:objects hallway - room ceiling-lamp - fixture new-bulb - bulb
            main - circuit stepladder - ladder)
  (:init (person-at hallway) (fixture-in ceiling-lamp hallway)
         (on-circuit ceiling-lamp main) (breaker-in main hallway)
         (ladder-under stepladder ceiling-lamp) (spare-in new-bulb hallway))
  (:goal (and (working ceiling-lamp) (power-on main))))
