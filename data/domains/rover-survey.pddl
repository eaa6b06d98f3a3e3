(define (domain rover-survey)
  (:requirements :strips :typing)
  (:types rover waypoint objective)
  (:predicates
    (rover-at ?r - rover ?w - waypoint)
    (can-traverse ?r - rover ?from - waypoint ?to - waypoint)
    (soil-at ?w - waypoint)
    (rock-at ?w - waypoint)
    (soil-kit ?r - rover)
    (rock-kit ?r - rover)
    (camera-kit ?r - rover)
    (store-empty ?r - rover)
    (store-full ?r - rover)
    (soil-data ?r - rover ?w - waypoint)
    (rock-data ?r - rover ?w - waypoint)
    (visible-from ?o - objective ?w - waypoint)
    (have-image ?r - rover ?o - objective)
    (lander-at ?w - waypoint)
    (comm-link ?from - waypoint ?to - waypoint)
    (soil-reported ?w - waypoint)
    (rock-reported ?w - waypoint)
    (image-reported ?o - objective))

  (:action navigate
    :parameters (?r - rover ?from - waypoint ?to - waypoint)
    :precondition (and (rover-at ?r ?from) (can-traverse ?r ?from ?to))
    :effect (and (rover-at ?r ?to)
                 (not (rover-at ?r ?from))))

  (:action sample-soil
    :parameters (?r - rover ?w - waypoint)
    :precondition (and (rover-at ?r ?w) (soil-at ?w) (soil-kit ?r) (store-empty ?r))
    :effect (and (soil-data ?r ?w)
                 (store-full ?r)
                 (not (store-empty ?r))
                 (not (soil-at ?w))))

  (:action sample-rock
    :parameters (?r - rover ?w - waypoint)
    :precondition (and (rover-at ?r ?w) (rock-at ?w) (rock-kit ?r) (store-empty ?r))
    :effect (and (rock-data ?r ?w)
                 (store-full ?r)
                 (not (store-empty ?r))
                 (not (rock-at ?w))))

  (:action empty-store
    :parameters (?r - rover)
    :precondition (store-full ?r)
    :effect (and (store-empty ?r)
                 (not (store-full ?r))))

  (:action take-image
    :parameters (?r - rover ?o - objective ?w - waypoint)
    :precondition (and (rover-at ?r ?w) (camera-kit ?r) (visible-from ?o ?w))
    :effect (have-image ?r ?o))

  (:action send-soil-data
    :parameters (?r - rover ?w - waypoint ?pos - waypoint ?lw - waypoint)
    :precondition (and (rover-at ?r ?pos) (lander-at ?lw) (comm-link ?pos ?lw) (soil-data ?r ?w))
    :effect (soil-reported ?w))

  (:action send-rock-data
    :parameters (?r - rover ?w - waypoint ?pos - waypoint ?lw - waypoint)
    :precondition (and (rover-at ?r ?pos) (lander-at ?lw) (comm-link ?pos ?lw) (rock-data ?r ?w))
    :effect (rock-reported ?w))

  (:action send-image
    :parameters (?r - rover ?o - objective ?pos - waypoint ?lw - waypoint)
    :precondition (and (rover-at ?r ?pos) (lander-at ?lw) (comm-link ?pos ?lw) (have-image ?r ?o))
    :effect (image-reported ?o)))
