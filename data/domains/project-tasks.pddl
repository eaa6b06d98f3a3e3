(define (domain project-tasks)
  (:requirements :strips :typing :negative-preconditions :disjunctive-preconditions :universal-preconditions)
  (:types task worker skill milestone)
  (:predicates
    (depends-on ?t - task ?p - task)
    (pending ?t - task)
    (in-progress ?t - task ?w - worker)
    (finished ?t - task)
    (requires-skill ?t - task ?s - skill)
    (has-skill ?w - worker ?s - skill)
    (idle ?w - worker)
    (part-of ?t - task ?m - milestone)
    (reached ?m - milestone))

  (:action start-task
    :parameters (?t - task ?w - worker ?s - skill)
    :precondition (and (pending ?t)
                       (requires-skill ?t ?s)
                       (has-skill ?w ?s)
                       (idle ?w)
                       (forall (?p - task)
                         (or (not (depends-on ?t ?p))
                             (finished ?p))))
    :effect (and (in-progress ?t ?w)
                 (not (pending ?t))
                 (not (idle ?w))))

  (:action finish-task
    :parameters (?t - task ?w - worker)
    :precondition (in-progress ?t ?w)
    :effect (and (finished ?t)
                 (idle ?w)
                 (not (in-progress ?t ?w))))

  (:action train-worker
    :parameters (?w - worker ?s - skill ?trainer - worker)
    :precondition (and (has-skill ?trainer ?s)
                       (idle ?trainer)
                       (idle ?w))
    :effect (has-skill ?w ?s))

  (:action reach-milestone
    :parameters (?m - milestone)
    :precondition (forall (?t - task)
                    (or (not (part-of ?t ?m))
                        (finished ?t)))
    :effect (reached ?m)))
