(define (domain snow-plow)
  (:requirements :strips :typing :negative-preconditions)
  (:types plow car junction)
  (:predicates
    (plow-at ?p - plow ?j - junction)
    (car-at ?c - car ?j - junction)
    (road ?from - junction ?to - junction)
    (snowed ?from - junction ?to - junction)
    (blade-down ?p - plow)
    (salt-loaded ?p - plow)
    (salt-depot ?j - junction)
    (icy ?j - junction))

  (:action lower-blade
    :parameters (?p - plow)
    :precondition (not (blade-down ?p))
    :effect (blade-down ?p))

  (:action raise-blade
    :parameters (?p - plow)
    :precondition (blade-down ?p)
    :effect (not (blade-down ?p)))

  (:action clear-road
    :parameters (?p - plow ?from - junction ?to - junction)
    :precondition (and (plow-at ?p ?from) (road ?from ?to) (blade-down ?p))
    :effect (and (plow-at ?p ?to)
                 (not (plow-at ?p ?from))
                 (not (snowed ?from ?to))
                 (not (snowed ?to ?from))))

  (:action transit
    :parameters (?p - plow ?from - junction ?to - junction)
    :precondition (and (plow-at ?p ?from) (road ?from ?to)
                       (not (blade-down ?p)) (not (snowed ?from ?to)))
    :effect (and (plow-at ?p ?to)
                 (not (plow-at ?p ?from))))

  (:action load-salt
    :parameters (?p - plow ?j - junction)
    :precondition (and (plow-at ?p ?j) (salt-depot ?j) (not (salt-loaded ?p)))
    :effect (salt-loaded ?p))

  (:action spread-salt
    :parameters (?p - plow ?j - junction)
    :precondition (and (plow-at ?p ?j) (salt-loaded ?p) (icy ?j))
    :effect (and (not (icy ?j))
                 (not (salt-loaded ?p))))

  (:action drive-car
    :parameters (?c - car ?from - junction ?to - junction)
    :precondition (and (car-at ?c ?from) (road ?from ?to)
                       (not (snowed ?from ?to)) (not (icy ?to)))
    :effect (and (car-at ?c ?to)
                 (not (car-at ?c ?from)))))
