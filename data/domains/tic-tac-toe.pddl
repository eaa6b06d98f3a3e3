(define (domain tic-tac-toe)
  (:requirements :strips :negative-preconditions :disjunctive-preconditions
                 :universal-preconditions)
  (:constants x o)
  (:predicates
    (cell ?c)
    (turn ?p)
    (follows ?p ?next)
    (taken ?c)
    (mark ?c ?p)
    (line ?c ?a ?b)
    (game-over)
    (won ?p)
    (draw))

  (:action mark-cell
    :parameters (?p ?next ?c)
    :precondition (and (cell ?c) (turn ?p) (follows ?p ?next) (not (taken ?c)) (not (game-over))
                       (forall (?a ?b)
                         (or (not (line ?c ?a ?b)) (not (mark ?a ?p)) (not (mark ?b ?p)))))
    :effect (and (mark ?c ?p)
                 (taken ?c)
                 (turn ?next)
                 (not (turn ?p))))

  (:action mark-winning-cell
    :parameters (?p ?c ?a ?b)
    :precondition (and (turn ?p) (not (taken ?c)) (not (game-over))
                       (line ?c ?a ?b) (mark ?a ?p) (mark ?b ?p))
    :effect (and (mark ?c ?p)
                 (taken ?c)
                 (won ?p)
                 (game-over)
                 (not (turn ?p))))

  (:action declare-draw
    :parameters (?p)
    :precondition (and (turn ?p) (not (game-over))
                       (forall (?c) (or (not (cell ?c)) (taken ?c))))
    :effect (and (draw)
                 (game-over)
                 (not (turn ?p)))))
