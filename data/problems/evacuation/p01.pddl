(define (problem evacuation-p01)
  (:domain evacuation)
  (:objects alma bruno - person
            riverside hilltop - area)
  (:init (person-at alma riverside) (person-at bruno riverside)
         (footpath riverside hilltop) (footpath hilltop riverside)
         (at-risk alma riverside) (at-risk bruno riverside)
         (danger-zone riverside) (shelter hilltop))
  (:goal (and (closed riverside) (registered alma) (registered bruno))))
