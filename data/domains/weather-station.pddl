(define (domain weather-station)
  (:requirements :strips :typing)
  (:types technician site sensor tool sensor-kind)
  (:predicates
    (tech-at ?t - technician ?s - site)
    (link ?from - site ?to - site)
    (station-site ?s - site)
    (sensor-at ?x - sensor ?s - site)
    (carrying ?t - technician ?x - sensor)
    (hands-free ?t - technician)
    (kind-of ?x - sensor ?k - sensor-kind)
    (installed ?x - sensor ?s - site)
    (calibrated ?x - sensor)
    (tool-at ?o - tool ?s - site)
    (has-tool ?t - technician ?o - tool)
    (calibrates ?o - tool ?k - sensor-kind)
    (modem-online ?s - site)
    (reported ?s - site ?k - sensor-kind))

  (:action travel
    :parameters (?t - technician ?from - site ?to - site)
    :precondition (and (tech-at ?t ?from) (link ?from ?to))
    :effect (and (tech-at ?t ?to)
                 (not (tech-at ?t ?from))))

  (:action pick-up-sensor
    :parameters (?t - technician ?x - sensor ?s - site)
    :precondition (and (tech-at ?t ?s) (sensor-at ?x ?s) (hands-free ?t))
    :effect (and (carrying ?t ?x)
                 (not (sensor-at ?x ?s))
                 (not (hands-free ?t))))

  (:action install-sensor
    :parameters (?t - technician ?x - sensor ?s - site)
    :precondition (and (tech-at ?t ?s) (carrying ?t ?x) (station-site ?s))
    :effect (and (installed ?x ?s)
                 (hands-free ?t)
                 (not (carrying ?t ?x))))

  (:action take-tool
    :parameters (?t - technician ?o - tool ?s - site)
    :precondition (and (tech-at ?t ?s) (tool-at ?o ?s))
    :effect (and (has-tool ?t ?o)
                 (not (tool-at ?o ?s))))

  (:action calibrate-sensor
    :parameters (?t - technician ?x - sensor ?o - tool ?k - sensor-kind ?s - site)
    :precondition (and (tech-at ?t ?s) (installed ?x ?s) (has-tool ?t ?o)
                       (kind-of ?x ?k) (calibrates ?o ?k))
    :effect (calibrated ?x))

  (:action activate-modem
    :parameters (?t - technician ?s - site)
    :precondition (and (tech-at ?t ?s) (station-site ?s))
    :effect (modem-online ?s))

  (:action transmit-data
    :parameters (?s - site ?x - sensor ?k - sensor-kind)
    :precondition (and (installed ?x ?s) (calibrated ?x) (kind-of ?x ?k) (modem-online ?s))
    :effect (reported ?s ?k)))
