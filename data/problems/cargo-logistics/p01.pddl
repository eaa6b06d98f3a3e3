(define (problem cargo-logistics-p01)
  (:domain cargo-logistics)
  (:objects north south - city
            north-field south-field - airport
            jet1 - airplane
            crate1 - package)
  (:init (in-city north-field north) (in-city south-field south)
         (at jet1 north-field) (at crate1 north-field))
  (:goal (at crate1 south-field)))
