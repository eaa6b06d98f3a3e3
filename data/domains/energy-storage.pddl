(define (domain energy-storage)
  (:requirements :strips :typing)
  (:types battery generator consumer period level - object
          diesel - generator)
  (:predicates
    (now ?t - period)
    (next-period ?t1 - period ?t2 - period)
    (output-ready ?g - generator ?t - period)
    (fuel ?d - diesel ?l - level)
    (charge ?b - battery ?l - level)
    (next ?lower - level ?higher - level)
    (linked ?b - battery ?c - consumer)
    (demands ?c - consumer ?t - period)
    (served ?c - consumer ?t - period))

  (:action run-diesel
    :parameters (?d - diesel ?t - period ?f - level ?f1 - level)
    :precondition (and (now ?t)
                       (fuel ?d ?f)
                       (next ?f1 ?f))
    :effect (and (output-ready ?d ?t)
                 (fuel ?d ?f1)
                 (not (fuel ?d ?f))))

  (:action charge-battery
    :parameters (?b - battery ?g - generator ?t - period ?l - level ?l2 - level)
    :precondition (and (now ?t)
                       (output-ready ?g ?t)
                       (charge ?b ?l)
                       (next ?l ?l2))
    :effect (and (charge ?b ?l2)
                 (not (charge ?b ?l))
                 (not (output-ready ?g ?t))))

  (:action supply-direct
    :parameters (?c - consumer ?g - generator ?t - period)
    :precondition (and (now ?t)
                       (output-ready ?g ?t)
                       (demands ?c ?t))
    :effect (and (served ?c ?t)
                 (not (demands ?c ?t))
                 (not (output-ready ?g ?t))))

  (:action supply-from-battery
    :parameters (?c - consumer ?b - battery ?t - period ?l - level ?l1 - level)
    :precondition (and (now ?t)
                       (demands ?c ?t)
                       (linked ?b ?c)
                       (charge ?b ?l)
                       (next ?l1 ?l))
    :effect (and (served ?c ?t)
                 (not (demands ?c ?t))
                 (charge ?b ?l1)
                 (not (charge ?b ?l))))

  (:action advance-period
    :parameters (?t1 - period ?t2 - period)
    :precondition (and (now ?t1)
                       (next-period ?t1 ?t2))
    :effect (and (now ?t2)
                 (not (now ?t1)))))
