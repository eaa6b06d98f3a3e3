(define (problem film-production-p00)
  (:domain film-production)
  (:objects opening - scene
            diner - scenery
            rosa tom - actor
            unit-a - crew
            monday - day
            h0 h1 h2 - hour)
  (:init (today monday)
         (available rosa monday) (available tom monday)
         (crew-available unit-a monday)
         (stage-free monday)
         (lead rosa opening) (support tom opening)
         (uses-set opening diner)
         (hours-left h2) (hour-less h0 h1) (hour-less h1 h2) (full-day h2))
  (:goal (dressed diner monday)))
