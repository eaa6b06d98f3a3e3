(define (domain sudoku-fill)
  (:requirements :strips :typing :negative-preconditions :existential-preconditions)
  (:types cell digit row column region)
  (:predicates
    (in-row ?c - cell ?r - row)
    (in-column ?c - cell ?k - column)
    (in-region ?c - cell ?g - region)
    (holds ?c - cell ?d - digit)
    (filled ?c - cell)
    (given ?c - cell))

  (:action place
    :parameters (?c - cell ?d - digit ?r - row ?k - column ?g - region)
    :precondition (and (not (filled ?c))
                       (in-row ?c ?r) (in-column ?c ?k) (in-region ?c ?g)
                       (not (exists (?o - cell) (and (in-row ?o ?r) (holds ?o ?d))))
                       (not (exists (?o - cell) (and (in-column ?o ?k) (holds ?o ?d))))
                       (not (exists (?o - cell) (and (in-region ?o ?g) (holds ?o ?d)))))
    :effect (and (holds ?c ?d)
                 (filled ?c)))

  (:action erase
    :parameters (?c - cell ?d - digit)
    :precondition (and (holds ?c ?d) (not (given ?c)))
    :effect (and (not (holds ?c ?d))
                 (not (filled ?c)))))
