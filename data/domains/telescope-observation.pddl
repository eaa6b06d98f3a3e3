(define (domain telescope-observation)
  (:requirements :strips :typing)
  (:types target filter slots)
  (:predicates
    (pointing ?t - target)
    (observable ?t - target)
    (bright ?t - target)
    (dome-open)
    (dome-closed)
    (filter-in ?f - filter)
    (focused)
    (raw-image ?t - target ?f - filter)
    (flat-frame ?f - filter)
    (calibrated ?t - target ?f - filter)
    (archived ?t - target ?f - filter)
    (buffer-free ?n - slots)
    (one-less ?fewer - slots ?more - slots))

  (:action open-dome
    :parameters ()
    :precondition (dome-closed)
    :effect (and (dome-open)
                 (not (dome-closed))))

  (:action close-dome
    :parameters ()
    :precondition (dome-open)
    :effect (and (dome-closed)
                 (not (dome-open))))

  (:action slew
    :parameters (?from - target ?to - target)
    :precondition (and (pointing ?from) (observable ?to))
    :effect (and (pointing ?to)
                 (not (pointing ?from))))

  (:action change-filter
    :parameters (?old - filter ?new - filter)
    :precondition (filter-in ?old)
    :effect (and (filter-in ?new)
                 (not (filter-in ?old))
                 (not (focused))))

  (:action focus
    :parameters (?t - target ?f - filter)
    :precondition (and (pointing ?t) (bright ?t) (filter-in ?f) (dome-open))
    :effect (focused))

  (:action take-flat
    :parameters (?f - filter)
    :precondition (and (dome-closed) (filter-in ?f))
    :effect (flat-frame ?f))

  (:action expose
    :parameters (?t - target ?f - filter ?n1 - slots ?n0 - slots)
    :precondition (and (pointing ?t) (filter-in ?f) (focused) (dome-open)
                       (buffer-free ?n1) (one-less ?n0 ?n1))
    :effect (and (raw-image ?t ?f)
                 (buffer-free ?n0)
                 (not (buffer-free ?n1))))

  (:action calibrate
    :parameters (?t - target ?f - filter)
    :precondition (and (raw-image ?t ?f) (flat-frame ?f))
    :effect (and (calibrated ?t ?f)
                 (not (raw-image ?t ?f))))

  (:action archive
    :parameters (?t - target ?f - filter ?n0 - slots ?n1 - slots)
    :precondition (and (calibrated ?t ?f) (buffer-free ?n0) (one-less ?n0 ?n1))
    :effect (and (archived ?t ?f)
                 (buffer-free ?n1)
                 (not (calibrated ?t ?f))
                 (not (buffer-free ?n0)))))
