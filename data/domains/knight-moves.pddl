(define (domain knight-moves)
  (:requirements :strips :negative-preconditions)
  (:predicates
    (knight-at ?s)
    (knight-step ?from ?to)
    (visited ?s)
    (blocked ?s)
    (pawn-on ?p ?s)
    (occupied ?s)
    (captured ?p))

  (:action hop
    :parameters (?from ?to)
    :precondition (and (knight-at ?from) (knight-step ?from ?to)
                       (not (visited ?to)) (not (blocked ?to)) (not (occupied ?to)))
    :effect (and (knight-at ?to)
                 (visited ?to)
                 (not (knight-at ?from))))

  (:action capture
    :parameters (?from ?to ?p)
    :precondition (and (knight-at ?from) (knight-step ?from ?to)
                       (not (visited ?to)) (pawn-on ?p ?to) (occupied ?to))
    :effect (and (knight-at ?to)
                 (visited ?to)
                 (captured ?p)
                 (not (knight-at ?from))
                 (not (pawn-on ?p ?to))
                 (not (occupied ?to)))))
