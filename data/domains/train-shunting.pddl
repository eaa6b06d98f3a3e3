(define (domain train-shunting)
  (:requirements :strips :typing :negative-preconditions)
  (:types locomotive wagon segment switch setting)
  (:predicates
    (loco-at ?l - locomotive ?s - segment)
    (wagon-at ?w - wagon ?s - segment)
    (occupied ?s - segment)
    (track ?a - segment ?b - segment)
    (switch-joins ?sw - switch ?pos - setting ?a - segment ?b - segment)
    (has-setting ?sw - switch ?pos - setting)
    (switch-set ?sw - switch ?pos - setting)
    (hauling ?l - locomotive ?w - wagon)
    (loco-free ?l - locomotive))

  (:action throw-switch
    :parameters (?sw - switch ?old - setting ?new - setting)
    :precondition (and (switch-set ?sw ?old) (has-setting ?sw ?new))
    :effect (and (switch-set ?sw ?new)
                 (not (switch-set ?sw ?old))))

  (:action drive
    :parameters (?l - locomotive ?from - segment ?to - segment)
    :precondition (and (loco-at ?l ?from) (track ?from ?to) (not (occupied ?to)))
    :effect (and (loco-at ?l ?to)
                 (occupied ?to)
                 (not (loco-at ?l ?from))
                 (not (occupied ?from))))

  (:action drive-over-switch
    :parameters (?l - locomotive ?sw - switch ?pos - setting ?from - segment ?to - segment)
    :precondition (and (loco-at ?l ?from) (switch-set ?sw ?pos)
                       (switch-joins ?sw ?pos ?from ?to) (not (occupied ?to)))
    :effect (and (loco-at ?l ?to)
                 (occupied ?to)
                 (not (loco-at ?l ?from))
                 (not (occupied ?from))))

  (:action couple
    :parameters (?l - locomotive ?w - wagon ?s - segment ?ws - segment)
    :precondition (and (loco-at ?l ?s) (wagon-at ?w ?ws) (track ?s ?ws) (loco-free ?l))
    :effect (and (hauling ?l ?w)
                 (not (wagon-at ?w ?ws))
                 (not (occupied ?ws))
                 (not (loco-free ?l))))

  (:action uncouple
    :parameters (?l - locomotive ?w - wagon ?s - segment ?ws - segment)
    :precondition (and (loco-at ?l ?s) (hauling ?l ?w) (track ?s ?ws) (not (occupied ?ws)))
    :effect (and (wagon-at ?w ?ws)
                 (occupied ?ws)
                 (loco-free ?l)
                 (not (hauling ?l ?w)))))
