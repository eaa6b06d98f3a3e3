(define (domain meeting-scheduler)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types meeting room slot person)
  (:predicates
    (fits ?m - meeting ?r - room)
    (invited ?p - person ?m - meeting)
    (chairs ?p - person ?m - meeting)
    (scheduled ?m - meeting)
    (held-at ?m - meeting ?r - room ?s - slot)
    (room-taken ?r - room ?s - slot)
    (busy ?p - person ?s - slot)
    (attending ?p - person ?m - meeting)
    (takes-notes ?p - person ?m - meeting)
    (has-note-taker ?m - meeting))

  (:action book-room
    :parameters (?m - meeting ?r - room ?s - slot)
    :precondition (and (not (scheduled ?m))
                       (not (room-taken ?r ?s))
                       (fits ?m ?r))
    :effect (and (scheduled ?m)
                 (held-at ?m ?r ?s)
                 (room-taken ?r ?s)))

  (:action join
    :parameters (?p - person ?m - meeting ?r - room ?s - slot)
    :precondition (and (held-at ?m ?r ?s)
                       (invited ?p ?m)
                       (not (attending ?p ?m))
                       (not (busy ?p ?s)))
    :effect (and (attending ?p ?m)
                 (busy ?p ?s)))

  (:action withdraw
    :parameters (?p - person ?m - meeting ?r - room ?s - slot)
    :precondition (and (held-at ?m ?r ?s)
                       (attending ?p ?m)
                       (not (takes-notes ?p ?m)))
    :effect (and (not (attending ?p ?m))
                 (not (busy ?p ?s))))

  (:action appoint-note-taker
    :parameters (?p - person ?chair - person ?m - meeting)
    :precondition (and (attending ?p ?m)
                       (chairs ?chair ?m)
                       (not (= ?p ?chair))
                       (not (has-note-taker ?m)))
    :effect (and (takes-notes ?p ?m)
                 (has-note-taker ?m))))
