(define (domain construction-site)
  (:requirements :strips :typing)
  (:types location crew machine truck stage - object
          site - location)
  (:predicates
    (road ?a - location ?b - location)
    (crew-at ?c - crew ?l - location)
    (machine-at ?m - machine ?l - location)
    (truck-at ?t - truck ?l - location)
    (depot ?l - location)
    (truck-empty ?t - truck)
    (carrying ?t - truck ?s - stage)
    (materials ?b - site ?s - stage)
    (done ?b - site ?s - stage)
    (stage-order ?prev - stage ?next - stage)
    (crew-skill ?c - crew ?s - stage)
    (machine-role ?m - machine ?s - stage)
    (needs-machine ?s - stage)
    (hand-work ?s - stage))

  (:action move-crew
    :parameters (?c - crew ?from - location ?to - location)
    :precondition (and (crew-at ?c ?from)
                       (road ?from ?to))
    :effect (and (crew-at ?c ?to)
                 (not (crew-at ?c ?from))))

  (:action move-machine
    :parameters (?m - machine ?from - location ?to - location)
    :precondition (and (machine-at ?m ?from)
                       (road ?from ?to))
    :effect (and (machine-at ?m ?to)
                 (not (machine-at ?m ?from))))

  (:action drive-truck
    :parameters (?t - truck ?from - location ?to - location)
    :precondition (and (truck-at ?t ?from)
                       (road ?from ?to))
    :effect (and (truck-at ?t ?to)
                 (not (truck-at ?t ?from))))

  (:action load-material
    :parameters (?t - truck ?s - stage ?d - location)
    :precondition (and (truck-at ?t ?d)
                       (depot ?d)
                       (truck-empty ?t))
    :effect (and (carrying ?t ?s)
                 (not (truck-empty ?t))))

  (:action unload-material
    :parameters (?t - truck ?s - stage ?b - site)
    :precondition (and (truck-at ?t ?b)
                       (carrying ?t ?s))
    :effect (and (materials ?b ?s)
                 (truck-empty ?t)
                 (not (carrying ?t ?s))))

  (:action build-heavy
    :parameters (?b - site ?prev - stage ?s - stage ?c - crew ?m - machine)
    :precondition (and (done ?b ?prev)
                       (stage-order ?prev ?s)
                       (needs-machine ?s)
                       (crew-at ?c ?b)
                       (crew-skill ?c ?s)
                       (machine-at ?m ?b)
                       (machine-role ?m ?s)
                       (materials ?b ?s))
    :effect (and (done ?b ?s)
                 (not (materials ?b ?s))))

  (:action build-light
    :parameters (?b - site ?prev - stage ?s - stage ?c - crew)
    :precondition (and (done ?b ?prev)
                       (stage-order ?prev ?s)
                       (hand-work ?s)
                       (crew-at ?c ?b)
                       (crew-skill ?c ?s)
                       (materials ?b ?s))
    :effect (and (done ?b ?s)
                 (not (materials ?b ?s)))))
