(define (problem drone-delivery-p03)
  (:domain drone-delivery)
  (:objects hawk kite - drone
            hub mill lake farm school clinic ridge - location
            seeds medicine books tools vaccine - package
            b0 b1 b2 b3 - level)
  (:init (drone-at hawk hub) (hold-empty hawk) (battery hawk b1)
         (drone-at kite lake) (hold-empty kite) (battery kite b3)
         (next-level b0 b1) (next-level b1 b2) (next-level b2 b3)
         (air-link hub mill) (air-link mill hub) (air-link mill farm) (air-link farm mill)
         (air-link hub lake) (air-link lake hub) (air-link lake school) (air-link school lake)
         (air-link school clinic) (air-link clinic school) (air-link farm ridge)
         (air-link ridge farm) (air-link ridge clinic) (air-link clinic ridge)
         (charging-pad hub) (charging-pad school)
         (package-at seeds hub) (package-at medicine hub) (package-at books mill)
         (package-at tools lake) (package-at vaccine school))
  (:goal (and (package-at seeds farm) (package-at medicine clinic) (package-at books school)
              (package-at tools ridge) (package-at vaccine hub))))
