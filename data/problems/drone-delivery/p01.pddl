(define (problem drone-delivery-p01)
  (:domain drone-delivery)
  (:objects hawk - drone
            hub farm - location
            seeds - package
            b0 b1 b2 - level)
  (:init (drone-at hawk hub) (hold-empty hawk) (battery hawk b2)
         (next-level b0 b1) (next-level b1 b2)
         (air-link hub farm) (air-link farm hub) (charging-pad hub)
         (package-at seeds hub))
  (:goal (and (package-at seeds farm) (drone-at hawk hub))))
