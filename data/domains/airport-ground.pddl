(define (domain airport-ground)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types aircraft place - object
          gate taxiway runway - place)
  (:predicates
    (at ?a - aircraft ?p - place)
    (occupied ?p - place)
    (connects ?from - place ?to - place)
    (parked ?a - aircraft)
    (taxiing ?a - aircraft)
    (lined-up ?a - aircraft)
    (airborne ?a - aircraft)
    (approaching ?a - aircraft)
    (rolling-out ?a - aircraft))

  (:action pushback
    :parameters (?a - aircraft ?g - gate ?t - taxiway)
    :precondition (and (at ?a ?g) (parked ?a) (connects ?g ?t) (not (occupied ?t)))
    :effect (and (at ?a ?t)
                 (occupied ?t)
                 (taxiing ?a)
                 (not (at ?a ?g))
                 (not (occupied ?g))
                 (not (parked ?a))))

  (:action taxi
    :parameters (?a - aircraft ?from - taxiway ?to - taxiway)
    :precondition (and (at ?a ?from) (taxiing ?a) (connects ?from ?to)
                       (not (= ?from ?to)) (not (occupied ?to)))
    :effect (and (at ?a ?to)
                 (occupied ?to)
                 (not (at ?a ?from))
                 (not (occupied ?from))))

  (:action line-up
    :parameters (?a - aircraft ?t - taxiway ?r - runway)
    :precondition (and (at ?a ?t) (taxiing ?a) (connects ?t ?r) (not (occupied ?r)))
    :effect (and (at ?a ?r)
                 (occupied ?r)
                 (lined-up ?a)
                 (not (at ?a ?t))
                 (not (occupied ?t))
                 (not (taxiing ?a))))

  (:action take-off
    :parameters (?a - aircraft ?r - runway)
    :precondition (and (at ?a ?r) (lined-up ?a))
    :effect (and (airborne ?a)
                 (not (at ?a ?r))
                 (not (occupied ?r))
                 (not (lined-up ?a))))

  (:action land
    :parameters (?a - aircraft ?r - runway)
    :precondition (and (approaching ?a) (not (occupied ?r)))
    :effect (and (at ?a ?r)
                 (occupied ?r)
                 (rolling-out ?a)
                 (not (approaching ?a))))

  (:action vacate-runway
    :parameters (?a - aircraft ?r - runway ?t - taxiway)
    :precondition (and (at ?a ?r) (rolling-out ?a) (connects ?r ?t) (not (occupied ?t)))
    :effect (and (at ?a ?t)
                 (occupied ?t)
                 (taxiing ?a)
                 (not (at ?a ?r))
                 (not (occupied ?r))
                 (not (rolling-out ?a))))

  (:action park
    :parameters (?a - aircraft ?t - taxiway ?g - gate)
    :precondition (and (at ?a ?t) (taxiing ?a) (connects ?t ?g) (not (occupied ?g)))
    :effect (and (at ?a ?g)
                 (occupied ?g)
                 (parked ?a)
                 (not (at ?a ?t))
                 (not (occupied ?t))
                 (not (taxiing ?a)))))
