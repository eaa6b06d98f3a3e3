(define (domain reactor-control)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types rod pump power-level)
  (:predicates
    (power ?l - power-level)
    (step-up ?low - power-level ?high - power-level)
    (low-band ?l - power-level)
    (mid-band ?l - power-level)
    (high-band ?l - power-level)
    (rated ?l - power-level)
    (withdrawn ?r - rod)
    (rod-stuck ?r - rod)
    (pump-on ?p - pump)
    (pump-faulty ?p - pump)
    (grid-connected))

  (:action start-pump
    :parameters (?p - pump)
    :precondition (and (not (pump-on ?p)) (not (pump-faulty ?p)))
    :effect (pump-on ?p))

  (:action stop-pump
    :parameters (?p - pump ?l - power-level)
    :precondition (and (pump-on ?p) (power ?l) (low-band ?l))
    :effect (not (pump-on ?p)))

  (:action repair-pump
    :parameters (?p - pump)
    :precondition (and (pump-faulty ?p) (not (pump-on ?p)))
    :effect (not (pump-faulty ?p)))

  (:action free-rod
    :parameters (?r - rod ?l - power-level)
    :precondition (and (rod-stuck ?r) (not (withdrawn ?r)) (power ?l) (low-band ?l))
    :effect (not (rod-stuck ?r)))

  (:action withdraw-rod-low
    :parameters (?r - rod ?from - power-level ?to - power-level)
    :precondition (and (not (withdrawn ?r)) (not (rod-stuck ?r))
                       (power ?from) (step-up ?from ?to) (low-band ?to))
    :effect (and (withdrawn ?r)
                 (power ?to)
                 (not (power ?from))))

  (:action withdraw-rod-mid
    :parameters (?r - rod ?from - power-level ?to - power-level ?p - pump)
    :precondition (and (not (withdrawn ?r)) (not (rod-stuck ?r))
                       (power ?from) (step-up ?from ?to) (mid-band ?to)
                       (pump-on ?p))
    :effect (and (withdrawn ?r)
                 (power ?to)
                 (not (power ?from))))

  (:action withdraw-rod-high
    :parameters (?r - rod ?from - power-level ?to - power-level ?p1 - pump ?p2 - pump)
    :precondition (and (not (withdrawn ?r)) (not (rod-stuck ?r))
                       (power ?from) (step-up ?from ?to) (high-band ?to)
                       (pump-on ?p1) (pump-on ?p2) (not (= ?p1 ?p2)))
    :effect (and (withdrawn ?r)
                 (power ?to)
                 (not (power ?from))))

  (:action insert-rod
    :parameters (?r - rod ?from - power-level ?to - power-level)
    :precondition (and (withdrawn ?r) (power ?from) (step-up ?to ?from))
    :effect (and (power ?to)
                 (not (withdrawn ?r))
                 (not (power ?from))))

  (:action connect-grid
    :parameters (?l - power-level)
    :precondition (and (power ?l) (rated ?l) (not (grid-connected)))
    :effect (grid-connected)))
