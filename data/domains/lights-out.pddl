(define (domain lights-out)
  (:requirements :strips :typing :negative-preconditions :conditional-effects)
  (:types cell counter)
  (:predicates
    (lit ?c - cell)
    (neighbour ?c - cell ?n - cell)
    (presses-left ?k - counter)
    (one-less ?k - counter ?fewer - counter))

  (:action press
    :parameters (?c - cell ?k - counter ?fewer - counter)
    :precondition (and (presses-left ?k) (one-less ?k ?fewer))
    :effect (and (presses-left ?fewer)
                 (not (presses-left ?k))
                 (when (lit ?c) (not (lit ?c)))
                 (when (not (lit ?c)) (lit ?c))
                 (forall (?n - cell)
                   (and (when (and (neighbour ?c ?n) (lit ?n)) (not (lit ?n)))
                        (when (and (neighbour ?c ?n) (not (lit ?n))) (lit ?n)))))))
