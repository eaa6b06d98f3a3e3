(define (domain coffee-making)
  (:requirements :strips :typing :negative-preconditions)
  (:types cup level)
  (:predicates
    (tank-level ?l - level)
    (beans-level ?l - level)
    (level-step ?lower - level ?higher - level)
    (max-level ?l - level)
    (grounds-ready)
    (spent-puck)
    (portafilter-locked)
    (cup-on-counter ?c - cup)
    (cup-at-spout ?c - cup)
    (spout-occupied)
    (has-coffee ?c - cup)
    (has-milk ?c - cup)
    (jug-full)
    (milk-hot))

  (:action refill-tank
    :parameters (?from - level ?to - level)
    :precondition (and (tank-level ?from) (max-level ?to) (not (max-level ?from)))
    :effect (and (tank-level ?to)
                 (not (tank-level ?from))))

  (:action refill-hopper
    :parameters (?from - level ?to - level)
    :precondition (and (beans-level ?from) (max-level ?to) (not (max-level ?from)))
    :effect (and (beans-level ?to)
                 (not (beans-level ?from))))

  (:action grind
    :parameters (?before - level ?after - level)
    :precondition (and (beans-level ?before) (level-step ?after ?before)
                       (not (grounds-ready)) (not (spent-puck)) (not (portafilter-locked)))
    :effect (and (grounds-ready)
                 (beans-level ?after)
                 (not (beans-level ?before))))

  (:action lock-portafilter
    :parameters ()
    :precondition (not (portafilter-locked))
    :effect (portafilter-locked))

  (:action unlock-portafilter
    :parameters ()
    :precondition (portafilter-locked)
    :effect (not (portafilter-locked)))

  (:action knock-out-puck
    :parameters ()
    :precondition (and (spent-puck) (not (portafilter-locked)))
    :effect (not (spent-puck)))

  (:action place-cup
    :parameters (?c - cup)
    :precondition (and (cup-on-counter ?c) (not (spout-occupied)))
    :effect (and (cup-at-spout ?c)
                 (spout-occupied)
                 (not (cup-on-counter ?c))))

  (:action remove-cup
    :parameters (?c - cup)
    :precondition (cup-at-spout ?c)
    :effect (and (cup-on-counter ?c)
                 (not (cup-at-spout ?c))
                 (not (spout-occupied))))

  (:action brew
    :parameters (?c - cup ?before - level ?after - level)
    :precondition (and (cup-at-spout ?c) (portafilter-locked) (grounds-ready)
                       (not (has-coffee ?c))
                       (tank-level ?before) (level-step ?after ?before))
    :effect (and (has-coffee ?c)
                 (spent-puck)
                 (tank-level ?after)
                 (not (grounds-ready))
                 (not (tank-level ?before))))

  (:action fill-jug
    :parameters ()
    :precondition (not (jug-full))
    :effect (jug-full))

  (:action steam-milk
    :parameters (?before - level ?after - level)
    :precondition (and (jug-full) (not (milk-hot))
                       (tank-level ?before) (level-step ?after ?before))
    :effect (and (milk-hot)
                 (tank-level ?after)
                 (not (tank-level ?before))))

  (:action pour-milk
    :parameters (?c - cup)
    :precondition (and (cup-on-counter ?c) (has-coffee ?c) (not (has-milk ?c))
                       (jug-full) (milk-hot))
    :effect (and (has-milk ?c)
                 (not (jug-full))
                 (not (milk-hot)))))
