; Maze walker: an untyped STRIPS domain. Unary predicates (Room, Lamp, Lever)
; tell the kinds of object apart, as in the older IPC domains.
(define (domain maze-walker)
  (:requirements :strips)
  (:predicates
    (Room ?r)
    (Lamp ?x)
    (Lever ?x)
    (walker-in ?r)
    (passage ?from ?to)      ; one-way unless both directions are listed
    (lit ?r)
    (dark ?r)
    (lies-in ?x ?r)
    (carrying ?x)
    (lever-in ?v ?r)
    (lever-opens ?v ?from ?to))

  ; moving between rooms: a lit room is entered freely, a dark one with a lamp in hand
  (:action Walk
    :parameters (?from ?to)
    :precondition (and (Room ?from) (Room ?to) (walker-in ?from)
                       (passage ?from ?to) (lit ?to))
    :effect (and (walker-in ?to)
                 (not (walker-in ?from))))

  (:action Walk-With-Lamp
    :parameters (?from ?to ?l)
    :precondition (and (Room ?from) (Room ?to) (walker-in ?from)
                       (passage ?from ?to) (dark ?to) (Lamp ?l) (carrying ?l))
    :effect (and (walker-in ?to)
                 (not (walker-in ?from))))

  (:action Pick-Up
    :parameters (?x ?r)
    :precondition (and (Room ?r) (walker-in ?r) (lies-in ?x ?r))
    :effect (and (carrying ?x)
                 (not (lies-in ?x ?r))))

  (:action Put-Down
    :parameters (?x ?r)
    :precondition (and (Room ?r) (walker-in ?r) (carrying ?x))
    :effect (and (lies-in ?x ?r)
                 (not (carrying ?x))))

  ; a lever opens a new one-way passage somewhere else in the maze
  (:action Pull-Lever
    :parameters (?v ?r ?from ?to)
    :precondition (and (Lever ?v) (Room ?r) (walker-in ?r) (lever-in ?v ?r)
                       (lever-opens ?v ?from ?to))
    :effect (passage ?from ?to)))
