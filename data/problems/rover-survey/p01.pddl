(define (problem rover-survey-p01)
  (:domain rover-survey)
  (:objects scout - rover
            base crater - waypoint
            ridge - objective)
  (:init (rover-at scout base) (lander-at base) (comm-link base base)
         (can-traverse scout base crater) (can-traverse scout crater base)
         (soil-kit scout) (camera-kit scout) (store-empty scout)
         (soil-at crater) (visible-from ridge crater))
  (:goal (and (soil-reported crater) (image-reported ridge))))
