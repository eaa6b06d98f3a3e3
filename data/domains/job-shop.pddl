(define (domain job-shop)
  (:requirements :strips :typing :negative-preconditions)
  (:types job operation machine setup)
  (:predicates
    (precedes ?first - operation ?second - operation)
    (final-step ?o - operation ?j - job)
    (runs-on ?o - operation ?m - machine)
    (needs-setup ?o - operation ?s - setup)
    (configured ?m - machine ?s - setup)
    (ready ?o - operation)
    (busy ?m - machine)
    (processing ?o - operation ?m - machine)
    (job-complete ?j - job))

  (:action reconfigure
    :parameters (?m - machine ?old - setup ?new - setup)
    :precondition (and (configured ?m ?old)
                       (not (busy ?m)))
    :effect (and (configured ?m ?new)
                 (not (configured ?m ?old))))

  (:action start-operation
    :parameters (?o - operation ?m - machine ?s - setup)
    :precondition (and (ready ?o)
                       (runs-on ?o ?m)
                       (needs-setup ?o ?s)
                       (configured ?m ?s)
                       (not (busy ?m)))
    :effect (and (processing ?o ?m)
                 (busy ?m)
                 (not (ready ?o))))

  (:action finish-operation
    :parameters (?o - operation ?m - machine ?next - operation)
    :precondition (and (processing ?o ?m)
                       (precedes ?o ?next))
    :effect (and (ready ?next)
                 (not (processing ?o ?m))
                 (not (busy ?m))))

  (:action finish-final-operation
    :parameters (?o - operation ?m - machine ?j - job)
    :precondition (and (processing ?o ?m)
                       (final-step ?o ?j))
    :effect (and (job-complete ?j)
                 (not (processing ?o ?m))
                 (not (busy ?m)))))
