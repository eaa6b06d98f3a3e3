(define (domain cargo-logistics)
  (:requirements :strips :typing :action-costs)
  (:types consignment carrier site region room - object
          van freighter - carrier
          terminal - site)
  (:predicates
    (parked ?v - carrier ?s - site)
    (waiting ?p - consignment ?s - site)
    (aboard ?p - consignment ?v - carrier)
    (region-of ?s - site ?r - region)
    (road ?from - site ?to - site)
    (air-route ?from - terminal ?to - terminal)
    (spare ?v - carrier ?k - room)
    (room-step ?fewer - room ?more - room)
    (customs-post ?t - terminal)
    (cleared ?p - consignment ?r - region))
  (:functions (total-cost) - number)

  (:action drive
    :parameters (?v - van ?from - site ?to - site)
    :precondition (and (parked ?v ?from) (road ?from ?to))
    :effect (and (parked ?v ?to)
                 (not (parked ?v ?from))
                 (increase (total-cost) 2)))

  (:action fly
    :parameters (?f - freighter ?from - terminal ?to - terminal)
    :precondition (and (parked ?f ?from) (air-route ?from ?to))
    :effect (and (parked ?f ?to)
                 (not (parked ?f ?from))
                 (increase (total-cost) 6)))

  (:action stow
    :parameters (?p - consignment ?v - carrier ?s - site ?r - region ?more - room ?fewer - room)
    :precondition (and (waiting ?p ?s) (parked ?v ?s) (region-of ?s ?r) (cleared ?p ?r)
                       (spare ?v ?more) (room-step ?fewer ?more))
    :effect (and (aboard ?p ?v)
                 (spare ?v ?fewer)
                 (not (waiting ?p ?s))
                 (not (spare ?v ?more))
                 (increase (total-cost) 1)))

  (:action unstow
    :parameters (?p - consignment ?v - carrier ?s - site ?fewer - room ?more - room)
    :precondition (and (aboard ?p ?v) (parked ?v ?s)
                       (spare ?v ?fewer) (room-step ?fewer ?more))
    :effect (and (waiting ?p ?s)
                 (spare ?v ?more)
                 (not (aboard ?p ?v))
                 (not (spare ?v ?fewer))
                 (increase (total-cost) 1)))

  (:action clear-customs
    :parameters (?p - consignment ?t - terminal ?r - region)
    :precondition (and (waiting ?p ?t) (customs-post ?t) (region-of ?t ?r))
    :effect (and (cleared ?p ?r)
                 (increase (total-cost) 3))))
