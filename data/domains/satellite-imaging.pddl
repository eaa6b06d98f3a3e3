(define (domain satellite-imaging)
  (:requirements :strips :typing)
  (:types satellite instrument direction mode)
  (:predicates
    (on-board ?i - instrument ?s - satellite)
    (supports ?i - instrument ?m - mode)
    (pointing ?s - satellite ?d - direction)
    (power-avail ?s - satellite)
    (power-on ?i - instrument)
    (calibrated ?i - instrument)
    (calibration-target ?i - instrument ?d - direction)
    (memory-free ?s - satellite)
    (stored ?s - satellite ?d - direction ?m - mode)
    (ground-station ?d - direction)
    (downlinked ?d - direction ?m - mode))

  (:action turn-to
    :parameters (?s - satellite ?new - direction ?old - direction)
    :precondition (pointing ?s ?old)
    :effect (and (pointing ?s ?new)
                 (not (pointing ?s ?old))))

  (:action switch-on
    :parameters (?i - instrument ?s - satellite)
    :precondition (and (on-board ?i ?s) (power-avail ?s))
    :effect (and (power-on ?i)
                 (not (power-avail ?s))
                 (not (calibrated ?i))))

  (:action switch-off
    :parameters (?i - instrument ?s - satellite)
    :precondition (and (on-board ?i ?s) (power-on ?i))
    :effect (and (power-avail ?s)
                 (not (power-on ?i))))

  (:action calibrate
    :parameters (?s - satellite ?i - instrument ?d - direction)
    :precondition (and (on-board ?i ?s) (power-on ?i) (calibration-target ?i ?d)
                       (pointing ?s ?d))
    :effect (calibrated ?i))

  (:action take-image
    :parameters (?s - satellite ?d - direction ?i - instrument ?m - mode)
    :precondition (and (on-board ?i ?s) (power-on ?i) (calibrated ?i) (supports ?i ?m)
                       (pointing ?s ?d) (memory-free ?s))
    :effect (and (stored ?s ?d ?m)
                 (not (memory-free ?s))))

  (:action downlink
    :parameters (?s - satellite ?d - direction ?m - mode ?gs - direction)
    :precondition (and (stored ?s ?d ?m) (pointing ?s ?gs) (ground-station ?gs))
    :effect (and (downlinked ?d ?m)
                 (memory-free ?s)
                 (not (stored ?s ?d ?m)))))
