(define (domain cargo-logistics)
  (:requirements :strips :typing)
  (:types locatable location city - object
          package vehicle - locatable
          truck airplane - vehicle
          airport - location)
  (:predicates
    (at ?x - locatable ?l - location)
    (in ?p - package ?v - vehicle)
    (in-city ?l - location ?c - city)
    (screened ?p - package))

  (:action load-truck
    :parameters (?p - package ?t - truck ?l - location)
    :precondition (and (at ?p ?l) (at ?t ?l))
    :effect (and (in ?p ?t)
                 (not (at ?p ?l))))

  (:action unload-truck
    :parameters (?p - package ?t - truck ?l - location)
    :precondition (and (in ?p ?t) (at ?t ?l))
    :effect (and (at ?p ?l)
                 (not (in ?p ?t))))

  (:action drive-truck
    :parameters (?t - truck ?from - location ?to - location ?c - city)
    :precondition (and (at ?t ?from) (in-city ?from ?c) (in-city ?to ?c))
    :effect (and (at ?t ?to)
                 (not (at ?t ?from))))

  (:action screen-package
    :parameters (?p - package ?ap - airport)
    :precondition (at ?p ?ap)
    :effect (screened ?p))

  (:action load-airplane
    :parameters (?p - package ?a - airplane ?ap - airport)
    :precondition (and (at ?p ?ap) (at ?a ?ap) (screened ?p))
    :effect (and (in ?p ?a)
                 (not (at ?p ?ap))))

  (:action unload-airplane
    :parameters (?p - package ?a - airplane ?ap - airport)
    :precondition (and (in ?p ?a) (at ?a ?ap))
    :effect (and (at ?p ?ap)
                 (not (in ?p ?a))))

  (:action fly-airplane
    :parameters (?a - airplane ?from - airport ?to - airport)
    :precondition (at ?a ?from)
    :effect (and (at ?a ?to)
                 (not (at ?a ?from)))))
