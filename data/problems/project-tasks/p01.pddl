(define (problem project-tasks-p01)
  (:domain project-tasks)
  (:objects design build test - task
            maya - worker
            engineering - skill
            prototype - milestone)
  (:init (depends-on build design) (depends-on test build) (depends-on test design)
         (pending design) (pending build) (pending test)
         (requires-skill design engineering) (requires-skill build engineering)
         (requires-skill test engineering)
         (has-skill maya engineering) (idle maya)
         (part-of design prototype) (part-of build prototype) (part-of test prototype))
  (:goal (reached prototype)))
