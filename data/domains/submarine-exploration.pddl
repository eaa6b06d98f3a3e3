(define (domain submarine-exploration)
  (:requirements :strips :typing :conditional-effects)
  (:types submarine cell)
  (:predicates
    (sub-at ?s - submarine ?c - cell)
    (adjacent ?a - cell ?b - cell)
    (submerged ?s - submarine)
    (surfaced ?s - submarine)
    (sonar-ready ?s - submarine)
    (hidden-wreck ?c - cell)
    (wreck-detected ?c - cell)
    (wreck-inspected ?c - cell)
    (reported ?c - cell))

  (:action move
    :parameters (?s - submarine ?from - cell ?to - cell)
    :precondition (and (sub-at ?s ?from) (adjacent ?from ?to))
    :effect (and (sub-at ?s ?to)
                 (not (sub-at ?s ?from))))

  (:action dive
    :parameters (?s - submarine)
    :precondition (surfaced ?s)
    :effect (and (submerged ?s)
                 (not (surfaced ?s))))

  (:action surface
    :parameters (?s - submarine)
    :precondition (submerged ?s)
    :effect (and (surfaced ?s)
                 (sonar-ready ?s)
                 (not (submerged ?s))))

  (:action sonar-sweep
    :parameters (?s - submarine ?c - cell)
    :precondition (and (sub-at ?s ?c) (submerged ?s) (sonar-ready ?s))
    :effect (and (not (sonar-ready ?s))
                 (forall (?n - cell)
                   (when (and (adjacent ?c ?n) (hidden-wreck ?n))
                     (and (wreck-detected ?n)
                          (not (hidden-wreck ?n)))))))

  (:action inspect-wreck
    :parameters (?s - submarine ?c - cell)
    :precondition (and (sub-at ?s ?c) (submerged ?s) (wreck-detected ?c))
    :effect (wreck-inspected ?c))

  (:action transmit-report
    :parameters (?s - submarine ?c - cell)
    :precondition (and (surfaced ?s) (wreck-inspected ?c))
    :effect (reported ?c)))
