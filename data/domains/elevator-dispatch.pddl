(define (domain elevator-dispatch)
  (:requirements :strips :typing :negative-preconditions)
  (:types floor passenger)
  (:constants f0 - floor)
  (:predicates
    (lift-at ?f - floor)
    (next-up ?lower - floor ?upper - floor)
    (door-open)
    (waiting ?p - passenger ?f - floor)
    (destination ?p - passenger ?f - floor)
    (boarded ?p - passenger)
    (served ?p - passenger))

  (:action open-door
    :parameters (?f - floor)
    :precondition (and (lift-at ?f) (not (door-open)))
    :effect (door-open))

  (:action close-door
    :parameters (?f - floor)
    :precondition (and (lift-at ?f) (door-open))
    :effect (not (door-open)))

  (:action go-up
    :parameters (?from - floor ?to - floor)
    :precondition (and (lift-at ?from) (next-up ?from ?to) (not (door-open)))
    :effect (and (lift-at ?to)
                 (not (lift-at ?from))))

  (:action go-down
    :parameters (?from - floor ?to - floor)
    :precondition (and (lift-at ?from) (next-up ?to ?from) (not (door-open)))
    :effect (and (lift-at ?to)
                 (not (lift-at ?from))))

  (:action board
    :parameters (?p - passenger ?f - floor)
    :precondition (and (lift-at ?f) (door-open) (waiting ?p ?f))
    :effect (and (boarded ?p)
                 (not (waiting ?p ?f))))

  (:action alight
    :parameters (?p - passenger ?f - floor)
    :precondition (and (lift-at ?f) (door-open) (boarded ?p) (destination ?p ?f)
                       (not (served ?p)))
    :effect (and (served ?p)
                 (not (boarded ?p)))))
