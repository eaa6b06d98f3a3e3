(define (problem cargo-logistics-p02)
  (:domain cargo-logistics)
  (:objects north south - city
            north-field south-field - airport
            north-depot south-market - location
            jet1 - airplane
            van-n van-s - truck
            crate1 crate2 - package)
  (:init (in-city north-field north) (in-city north-depot north)
         (in-city south-field south) (in-city south-market south)
         (at jet1 north-field) (at van-n north-field) (at van-s south-field)
         (at crate1 north-depot) (at crate2 south-field))
  (:goal (and (at crate1 south-market) (at crate2 north-depot))))
