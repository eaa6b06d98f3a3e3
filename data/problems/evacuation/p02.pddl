(define (problem evacuation-p02)
  (:domain evacuation)
  (:objects alma bruno chen dina - person
            van1 - vehicle
            riverside lowtown bridge hilltop - area)
  (:init (person-at alma riverside) (person-at bruno riverside) (person-at chen lowtown)
         (person-at dina bridge) (can-drive dina) (vehicle-at van1 bridge)
         (road bridge riverside) (road riverside bridge) (road bridge lowtown)
         (road lowtown bridge) (road bridge hilltop) (road hilltop bridge)
         (footpath lowtown bridge) (footpath bridge lowtown)
         (at-risk alma riverside) (at-risk bruno riverside) (at-risk chen lowtown)
         (danger-zone riverside) (danger-zone lowtown) (shelter hilltop))
  (:goal (and (closed riverside) (closed lowtown)
              (registered alma) (registered bruno) (registered chen))))
