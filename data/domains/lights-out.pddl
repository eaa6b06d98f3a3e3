; Lights Out: pressing a cell toggles its light and the lights of its neighbours.
; Untyped; the unary predicate cell marks the buttons of the board.
(define (domain lights-out)
  (:requirements :strips :negative-preconditions :conditional-effects)
  (:predicates
    (cell ?c)
    (lit ?c)
    (neighbour ?c ?n))

  (:action press
    :parameters (?c)
    :precondition (cell ?c)
    :effect (and (when (lit ?c) (not (lit ?c)))
                 (when (not (lit ?c)) (lit ?c))
                 ; each neighbour flips too
                 (forall (?n)
                   (and (when (and (neighbour ?c ?n) (lit ?n)) (not (lit ?n)))
                        (when (and (neighbour ?c ?n) (not (lit ?n))) (lit ?n)))))))
