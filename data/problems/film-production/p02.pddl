(define (problem film-production-p02)
  (:domain film-production)
  (:objects opening chase confession finale - scene
            diner rooftop - scenery
            rosa tom vic wren - actor
            unit-a unit-b - crew
            monday tuesday wednesday - day
            h0 h1 h2 - hour)
  (:init (today monday)
         (next-day monday tuesday) (next-day tuesday wednesday)
         (available rosa monday) (available rosa wednesday)
         (available tom monday) (available tom tuesday)
         (available vic tuesday) (available vic wednesday)
         (available wren monday) (available wren tuesday) (available wren wednesday)
         (crew-available unit-a monday) (crew-available unit-a tuesday)
         (crew-available unit-b wednesday)
         (stage-free monday) (stage-free tuesday) (stage-free wednesday)
         (lead rosa opening) (support tom opening) (uses-set opening diner)
         (lead vic chase) (support wren chase) (uses-set chase rooftop)
         (lead tom confession) (support wren confession) (uses-set confession rooftop)
         (lead rosa finale) (support vic finale) (uses-set finale diner)
         (hours-left h2) (hour-less h0 h1) (hour-less h1 h2) (full-day h2))
  (:goal (and (shot opening) (shot chase) (shot confession) (shot finale))))
