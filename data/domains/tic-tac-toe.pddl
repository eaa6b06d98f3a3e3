(define (domain tic-tac-toe)
  (:requirements :strips :typing :negative-preconditions :disjunctive-preconditions
                 :universal-preconditions)
  (:types player cell)
  (:predicates
    (turn ?p - player)
    (follows ?p - player ?next - player)
    (taken ?c - cell)
    (mark ?c - cell ?p - player)
    (line ?c - cell ?a - cell ?b - cell)
    (game-over)
    (won ?p - player)
    (draw))

  (:action mark-cell
    :parameters (?p - player ?next - player ?c - cell)
    :precondition (and (turn ?p) (follows ?p ?next) (not (taken ?c)) (not (game-over))
                       (forall (?a - cell ?b - cell)
                         (or (not (line ?c ?a ?b)) (not (mark ?a ?p)) (not (mark ?b ?p)))))
    :effect (and (mark ?c ?p)
                 (taken ?c)
                 (turn ?next)
                 (not (turn ?p))))

  (:action mark-winning-cell
    :parameters (?p - player ?c - cell ?a - cell ?b - cell)
    :precondition (and (turn ?p) (not (taken ?c)) (not (game-over))
                       (line ?c ?a ?b) (mark ?a ?p) (mark ?b ?p))
    :effect (and (mark ?c ?p)
                 (taken ?c)
                 (won ?p)
                 (game-over)
                 (not (turn ?p))))

  (:action declare-draw
    :parameters (?p - player)
    :precondition (and (turn ?p) (not (game-over))
                       (forall (?c - cell) (taken ?c)))
    :effect (and (draw)
                 (game-over)
                 (not (turn ?p)))))
