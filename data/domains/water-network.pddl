(define (domain water-network)
  (:requirements :strips :typing :negative-preconditions)
  (:types tank pipe pump level)
  (:predicates
    (connects ?p - pipe ?from - tank ?to - tank)
    (downhill ?p - pipe)
    (pump-on-pipe ?u - pump ?p - pipe)
    (pump-running ?u - pump)
    (valve-open ?p - pipe)
    (valve-stuck ?p - pipe)
    (contaminated ?t - tank)
    (water-level ?t - tank ?l - level)
    (next ?lower - level ?higher - level))

  (:action open-valve
    :parameters (?p - pipe)
    :precondition (and (not (valve-open ?p)) (not (valve-stuck ?p)))
    :effect (valve-open ?p))

  (:action close-valve
    :parameters (?p - pipe)
    :precondition (valve-open ?p)
    :effect (not (valve-open ?p)))

  (:action free-valve
    :parameters (?p - pipe)
    :precondition (and (valve-stuck ?p) (not (valve-open ?p)))
    :effect (not (valve-stuck ?p)))

  (:action start-pump
    :parameters (?u - pump)
    :precondition (not (pump-running ?u))
    :effect (pump-running ?u))

  (:action stop-pump
    :parameters (?u - pump)
    :precondition (pump-running ?u)
    :effect (not (pump-running ?u)))

  (:action disinfect
    :parameters (?t - tank)
    :precondition (contaminated ?t)
    :effect (not (contaminated ?t)))

  (:action gravity-flow
    :parameters (?p - pipe ?from - tank ?to - tank
                 ?src-old - level ?src-new - level
                 ?dst-old - level ?dst-new - level)
    :precondition (and (connects ?p ?from ?to) (downhill ?p) (valve-open ?p)
                       (not (contaminated ?from))
                       (water-level ?from ?src-old) (next ?src-new ?src-old)
                       (water-level ?to ?dst-old) (next ?dst-old ?dst-new))
    :effect (and (water-level ?from ?src-new)
                 (not (water-level ?from ?src-old))
                 (water-level ?to ?dst-new)
                 (not (water-level ?to ?dst-old))))

  (:action pump-water
    :parameters (?u - pump ?p - pipe ?from - tank ?to - tank
                 ?src-old - level ?src-new - level
                 ?dst-old - level ?dst-new - level)
    :precondition (and (pump-on-pipe ?u ?p) (pump-running ?u)
                       (connects ?p ?from ?to) (valve-open ?p)
                       (not (contaminated ?from))
                       (water-level ?from ?src-old) (next ?src-new ?src-old)
                       (water-level ?to ?dst-old) (next ?dst-old ?dst-new))
    :effect (and (water-level ?from ?src-new)
                 (not (water-level ?from ?src-old))
                 (water-level ?to ?dst-new)
                 (not (water-level ?to ?dst-old)))))
