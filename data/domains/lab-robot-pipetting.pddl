(define (domain lab-robot-pipetting)
  (:requirements :strips :typing :negative-preconditions)
  (:types well rack chute - place
          place tip liquid volume)
  (:predicates
    (arm-over ?p - place)
    (arm-busy)
    (tip-in-rack ?t - tip ?r - rack)
    (on-arm ?t - tip)
    (tip-used ?t - tip)
    (tip-full ?t - tip)
    (tip-liquid ?t - tip ?l - liquid)
    (source-of ?w - well ?l - liquid)
    (has-liquid ?w - well ?l - liquid)
    (well-volume ?w - well ?v - volume)
    (vol-next ?less - volume ?more - volume)
    (sealed ?w - well))

  (:action move-arm
    :parameters (?from - place ?to - place)
    :precondition (and (arm-over ?from) (not (arm-over ?to)))
    :effect (and (arm-over ?to)
                 (not (arm-over ?from))))

  (:action pick-tip
    :parameters (?t - tip ?r - rack)
    :precondition (and (arm-over ?r) (tip-in-rack ?t ?r) (not (arm-busy)))
    :effect (and (on-arm ?t)
                 (arm-busy)
                 (not (tip-in-rack ?t ?r))))

  (:action peel-seal
    :parameters (?w - well)
    :precondition (and (arm-over ?w) (sealed ?w) (not (arm-busy)))
    :effect (not (sealed ?w)))

  (:action aspirate
    :parameters (?t - tip ?w - well ?l - liquid ?v1 - volume ?v0 - volume)
    :precondition (and (on-arm ?t) (arm-over ?w) (not (tip-used ?t)) (not (sealed ?w))
                       (source-of ?w ?l) (well-volume ?w ?v1) (vol-next ?v0 ?v1))
    :effect (and (tip-liquid ?t ?l)
                 (tip-full ?t)
                 (tip-used ?t)
                 (well-volume ?w ?v0)
                 (not (well-volume ?w ?v1))))

  (:action dispense
    :parameters (?t - tip ?w - well ?l - liquid ?v0 - volume ?v1 - volume)
    :precondition (and (on-arm ?t) (arm-over ?w) (tip-full ?t) (tip-liquid ?t ?l)
                       (not (sealed ?w)) (not (source-of ?w ?l))
                       (well-volume ?w ?v0) (vol-next ?v0 ?v1))
    :effect (and (has-liquid ?w ?l)
                 (well-volume ?w ?v1)
                 (not (well-volume ?w ?v0))
                 (not (tip-full ?t))
                 (not (tip-liquid ?t ?l))))

  (:action eject-tip
    :parameters (?t - tip ?c - chute)
    :precondition (and (on-arm ?t) (arm-over ?c) (not (tip-full ?t)))
    :effect (and (not (on-arm ?t))
                 (not (arm-busy)))))
