(define (domain hanoi-discs)
  (:requirements :strips)
  (:predicates
    (disc ?x)
    (on ?x ?y)
    (clear ?x)
    (smaller ?x ?y)
    (holding ?x)
    (hand-free))

  (:action lift
    :parameters (?d ?below)
    :precondition (and (disc ?d) (on ?d ?below) (clear ?d) (hand-free))
    :effect (and (holding ?d)
                 (clear ?below)
                 (not (on ?d ?below))
                 (not (clear ?d))
                 (not (hand-free))))

  (:action drop
    :parameters (?d ?target)
    :precondition (and (holding ?d) (clear ?target) (smaller ?d ?target))
    :effect (and (on ?d ?target)
                 (clear ?d)
                 (hand-free)
                 (not (holding ?d))
                 (not (clear ?target)))))
