(define (domain gripper)
  (:requirements :strips :typing)
  (:types room ball gripper)
  (:predicates
    (robot-at ?r - room)
    (ball-at ?b - ball ?r - room)
    (free ?g - gripper)
    (carrying ?b - ball ?g - gripper))

  (:action move
    :parameters (?from - room ?to - room)
    :precondition (robot-at ?from)
    :effect (and (robot-at ?to)
                 (not (robot-at ?from))))

  (:action pick
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (ball-at ?b ?r) (robot-at ?r) (free ?g))
    :effect (and (carrying ?b ?g)
                 (not (ball-at ?b ?r))
                 (not (free ?g))))

  (:action drop
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (carrying ?b ?g) (robot-at ?r))
    :effect (and (ball-at ?b ?r)
                 (free ?g)
                 (not (carrying ?b ?g)))))
