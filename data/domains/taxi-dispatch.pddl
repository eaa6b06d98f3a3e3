(define (domain taxi-dispatch)
  (:requirements :strips :typing :negative-preconditions)
  (:types taxi passenger location)
  (:predicates
    (taxi-at ?t - taxi ?l - location)
    (road ?from - location ?to - location)
    (taxi-rank ?l - location)
    (on-duty ?t - taxi)
    (busy ?t - taxi)
    (passenger-at ?p - passenger ?l - location)
    (destination ?p - passenger ?l - location)
    (awaiting-taxi ?p - passenger)
    (assigned ?p - passenger ?t - taxi)
    (riding ?p - passenger ?t - taxi)
    (delivered ?p - passenger))

  (:action start-shift
    :parameters (?t - taxi ?l - location)
    :precondition (and (taxi-at ?t ?l) (taxi-rank ?l) (not (on-duty ?t)))
    :effect (on-duty ?t))

  (:action end-shift
    :parameters (?t - taxi ?l - location)
    :precondition (and (taxi-at ?t ?l) (taxi-rank ?l) (on-duty ?t) (not (busy ?t)))
    :effect (not (on-duty ?t)))

  (:action dispatch
    :parameters (?t - taxi ?p - passenger)
    :precondition (and (on-duty ?t) (not (busy ?t)) (awaiting-taxi ?p))
    :effect (and (assigned ?p ?t)
                 (busy ?t)
                 (not (awaiting-taxi ?p))))

  (:action drive
    :parameters (?t - taxi ?from - location ?to - location)
    :precondition (and (taxi-at ?t ?from) (road ?from ?to) (on-duty ?t))
    :effect (and (taxi-at ?t ?to)
                 (not (taxi-at ?t ?from))))

  (:action pick-up
    :parameters (?t - taxi ?p - passenger ?l - location)
    :precondition (and (assigned ?p ?t) (taxi-at ?t ?l) (passenger-at ?p ?l))
    :effect (and (riding ?p ?t)
                 (not (passenger-at ?p ?l))))

  (:action drop-off
    :parameters (?t - taxi ?p - passenger ?l - location)
    :precondition (and (riding ?p ?t) (taxi-at ?t ?l) (destination ?p ?l))
    :effect (and (passenger-at ?p ?l)
                 (delivered ?p)
                 (not (riding ?p ?t))
                 (not (assigned ?p ?t))
                 (not (busy ?t)))))
