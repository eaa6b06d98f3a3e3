(define (domain freecell-lite)
  (:requirements :strips :typing)
  (:types place freecell suit rank - object
          card column - place)
  (:predicates
    (on ?c - card ?p - place)
    (clear ?p - place)
    (in-cell ?c - card ?f - freecell)
    (cell-free ?f - freecell)
    (stackable ?c - card ?d - card)
    (suit-of ?c - card ?s - suit)
    (rank-of ?c - card ?r - rank)
    (next-rank ?r - rank ?higher - rank)
    (home-top ?s - suit ?r - rank))

  (:action tableau-to-cell
    :parameters (?c - card ?from - place ?f - freecell)
    :precondition (and (on ?c ?from) (clear ?c) (cell-free ?f))
    :effect (and (in-cell ?c ?f)
                 (clear ?from)
                 (not (on ?c ?from))
                 (not (clear ?c))
                 (not (cell-free ?f))))

  (:action cell-to-card
    :parameters (?c - card ?f - freecell ?d - card)
    :precondition (and (in-cell ?c ?f) (clear ?d) (stackable ?c ?d))
    :effect (and (on ?c ?d)
                 (clear ?c)
                 (cell-free ?f)
                 (not (in-cell ?c ?f))
                 (not (clear ?d))))

  (:action cell-to-column
    :parameters (?c - card ?f - freecell ?col - column)
    :precondition (and (in-cell ?c ?f) (clear ?col))
    :effect (and (on ?c ?col)
                 (clear ?c)
                 (cell-free ?f)
                 (not (in-cell ?c ?f))
                 (not (clear ?col))))

  (:action card-to-card
    :parameters (?c - card ?from - place ?d - card)
    :precondition (and (on ?c ?from) (clear ?c) (clear ?d) (stackable ?c ?d))
    :effect (and (on ?c ?d)
                 (clear ?from)
                 (not (on ?c ?from))
                 (not (clear ?d))))

  (:action card-to-column
    :parameters (?c - card ?from - place ?col - column)
    :precondition (and (on ?c ?from) (clear ?c) (clear ?col))
    :effect (and (on ?c ?col)
                 (clear ?from)
                 (not (on ?c ?from))
                 (not (clear ?col))))

  (:action tableau-to-home
    :parameters (?c - card ?from - place ?s - suit ?prev - rank ?r - rank)
    :precondition (and (on ?c ?from) (clear ?c) (suit-of ?c ?s) (rank-of ?c ?r)
                       (home-top ?s ?prev) (next-rank ?prev ?r))
    :effect (and (home-top ?s ?r)
                 (clear ?from)
                 (not (home-top ?s ?prev))
                 (not (on ?c ?from))
                 (not (clear ?c))))

  (:action cell-to-home
    :parameters (?c - card ?f - freecell ?s - suit ?prev - rank ?r - rank)
    :precondition (and (in-cell ?c ?f) (suit-of ?c ?s) (rank-of ?c ?r)
                       (home-top ?s ?prev) (next-rank ?prev ?r))
    :effect (and (home-top ?s ?r)
                 (cell-free ?f)
                 (not (home-top ?s ?prev))
                 (not (in-cell ?c ?f)))))
