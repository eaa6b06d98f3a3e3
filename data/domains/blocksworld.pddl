(define (domain blocksworld)
  (:requirements :strips :typing)
  (:types block)
  (:predicates
    (on ?top - block ?below - block)
    (on-table ?b - block)
    (clear ?b - block)
    (holding ?b - block)
    (hand-empty))

  (:action pick-up
    :parameters (?b - block)
    :precondition (and (clear ?b) (on-table ?b) (hand-empty))
    :effect (and (holding ?b)
                 (not (on-table ?b))
                 (not (clear ?b))
                 (not (hand-empty))))

  (:action put-down
    :parameters (?b - block)
    :precondition (holding ?b)
    :effect (and (on-table ?b)
                 (clear ?b)
                 (hand-empty)
                 (not (holding ?b))))

  (:action stack
    :parameters (?b - block ?target - block)
    :precondition (and (holding ?b) (clear ?target))
    :effect (and (on ?b ?target)
                 (clear ?b)
                 (hand-empty)
                 (not (holding ?b))
                 (not (clear ?target))))

  (:action unstack
    :parameters (?b - block ?below - block)
    :precondition (and (on ?b ?below) (clear ?b) (hand-empty))
    :effect (and (holding ?b)
                 (clear ?below)
                 (not (on ?b ?below))
                 (not (clear ?b))
                 (not (hand-empty)))))
