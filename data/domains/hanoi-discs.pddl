; Towers of Hanoi with an explicit hand: a disc is lifted, then dropped.
; Untyped: the unary predicate Disc marks the discs; the three pegs are constants.
(define (domain hanoi-discs)
  (:requirements :strips)
  (:constants Left Middle Right)
  (:predicates
    (Disc ?x)
    (on ?x ?y)
    (clear ?x)
    (smaller ?x ?y)          ; ?x may rest on ?y (a smaller disc, or any peg)
    (holding ?x)
    (hand-free))

  (:action Lift
    :parameters (?d ?below)
    :precondition (and (Disc ?d) (on ?d ?below) (clear ?d) (hand-free))
    :effect (and (holding ?d)
                 (clear ?below)
                 (not (on ?d ?below))
                 (not (clear ?d))
                 (not (hand-free))))

  (:action Drop
    :parameters (?d ?target)
    :precondition (and (holding ?d) (clear ?target) (smaller ?d ?target))
    :effect (and (on ?d ?target)
                 (clear ?d)
                 (hand-free)
                 (not (holding ?d))
                 (not (clear ?target)))))
