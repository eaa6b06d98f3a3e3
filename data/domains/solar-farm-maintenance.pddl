(define (domain solar-farm-maintenance)
  (:requirements :strips :typing)
  (:types technician location panel inverter spare-glass water-amount)
  (:predicates
    (at ?t - technician ?l - location)
    (path ?from - location ?to - location)
    (water-point ?l - location)
    (panel-in ?p - panel ?l - location)
    (inverter-in ?i - inverter ?l - location)
    (wired ?p - panel ?i - inverter)
    (dirty ?p - panel)
    (clean ?p - panel)
    (cracked ?p - panel)
    (intact ?p - panel)
    (glass-at ?s - spare-glass ?l - location)
    (carrying ?t - technician ?s - spare-glass)
    (hands-free ?t - technician)
    (water ?t - technician ?w - water-amount)
    (less-water ?w1 - water-amount ?w2 - water-amount)
    (full-tank ?w - water-amount)
    (inverter-online ?i - inverter)
    (inverter-isolated ?i - inverter)
    (inverter-faulted ?i - inverter)
    (inverter-ok ?i - inverter)
    (producing ?p - panel))

  (:action walk
    :parameters (?t - technician ?from - location ?to - location)
    :precondition (and (at ?t ?from) (path ?from ?to))
    :effect (and (at ?t ?to)
                 (not (at ?t ?from))))

  (:action pick-up-glass
    :parameters (?t - technician ?s - spare-glass ?l - location)
    :precondition (and (at ?t ?l) (glass-at ?s ?l) (hands-free ?t))
    :effect (and (carrying ?t ?s)
                 (not (glass-at ?s ?l))
                 (not (hands-free ?t))))

  (:action refill-water
    :parameters (?t - technician ?l - location ?w - water-amount ?full - water-amount)
    :precondition (and (at ?t ?l) (water-point ?l) (water ?t ?w) (full-tank ?full))
    :effect (and (water ?t ?full)
                 (not (water ?t ?w))))

  (:action wash-panel
    :parameters (?t - technician ?p - panel ?l - location ?w1 - water-amount ?w0 - water-amount)
    :precondition (and (at ?t ?l) (panel-in ?p ?l) (dirty ?p)
                       (water ?t ?w1) (less-water ?w0 ?w1))
    :effect (and (clean ?p)
                 (water ?t ?w0)
                 (not (dirty ?p))
                 (not (water ?t ?w1))))

  (:action replace-glass
    :parameters (?t - technician ?p - panel ?s - spare-glass ?l - location ?i - inverter)
    :precondition (and (at ?t ?l) (panel-in ?p ?l) (cracked ?p) (carrying ?t ?s)
                       (wired ?p ?i) (inverter-isolated ?i))
    :effect (and (intact ?p)
                 (hands-free ?t)
                 (not (cracked ?p))
                 (not (carrying ?t ?s))))

  (:action isolate-inverter
    :parameters (?t - technician ?i - inverter ?l - location)
    :precondition (and (at ?t ?l) (inverter-in ?i ?l) (inverter-online ?i))
    :effect (and (inverter-isolated ?i)
                 (not (inverter-online ?i))))

  (:action repair-inverter
    :parameters (?t - technician ?i - inverter ?l - location)
    :precondition (and (at ?t ?l) (inverter-in ?i ?l) (inverter-isolated ?i) (inverter-faulted ?i))
    :effect (and (inverter-ok ?i)
                 (not (inverter-faulted ?i))))

  (:action restart-inverter
    :parameters (?t - technician ?i - inverter ?l - location)
    :precondition (and (at ?t ?l) (inverter-in ?i ?l) (inverter-isolated ?i) (inverter-ok ?i))
    :effect (and (inverter-online ?i)
                 (not (inverter-isolated ?i))))

  (:action commission-panel
    :parameters (?t - technician ?p - panel ?i - inverter ?l - location)
    :precondition (and (at ?t ?l) (panel-in ?p ?l) (clean ?p) (intact ?p)
                       (wired ?p ?i) (inverter-online ?i))
    :effect (producing ?p)))
