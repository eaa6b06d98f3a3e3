(define (problem drone-delivery-p02)
  (:domain drone-delivery)
  (:objects hawk - drone
            hub mill lake farm school - location
            seeds medicine books - package
            b0 b1 b2 - level)
  (:init (drone-at hawk hub) (hold-empty hawk) (battery hawk b2)
         (next-level b0 b1) (next-level b1 b2)
         (air-link hub mill) (air-link mill hub) (air-link mill farm) (air-link farm mill)
         (air-link hub lake) (air-link lake hub) (air-link lake school) (air-link school lake)
         (charging-pad hub) (charging-pad mill)
         (package-at seeds hub) (package-at medicine hub) (package-at books mill))
  (:goal (and (package-at seeds farm) (package-at medicine school) (package-at books lake))))
