(define (problem cargo-logistics-p03)
  (:domain cargo-logistics)
  (:objects east west harbour - city
            east-field west-field harbour-field - airport
            east-mall west-depot west-school harbour-dock - location
            jet1 jet2 - airplane
            van-e van-w van-h - truck
            crate1 crate2 crate3 crate4 - package)
  (:init (in-city east-field east) (in-city east-mall east)
         (in-city west-field west) (in-city west-depot west) (in-city west-school west)
         (in-city harbour-field harbour) (in-city harbour-dock harbour)
         (at jet1 east-field) (at jet2 harbour-field)
         (at van-e east-mall) (at van-w west-depot) (at van-h harbour-field)
         (at crate1 east-mall) (at crate2 west-depot) (at crate3 harbour-dock)
         (at crate4 west-school) (screened crate3))
  (:goal (and (at crate1 west-school) (at crate2 harbour-dock)
              (at crate3 east-mall) (at crate4 west-depot))))
