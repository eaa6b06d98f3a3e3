(define (domain combination-lock)
  (:requirements :strips :typing :negative-preconditions :equality
                 :existential-preconditions :universal-preconditions)
  (:types dial digit)
  (:predicates
    (shows ?w - dial ?d - digit)
    (next-digit ?d - digit ?up - digit)
    (secret ?w - dial ?d - digit)
    (locked)
    (open))

  (:action turn-up
    :parameters (?w - dial ?from - digit ?to - digit)
    :precondition (and (shows ?w ?from) (next-digit ?from ?to)
                       (not (exists (?o - dial) (and (not (= ?o ?w)) (shows ?o ?to)))))
    :effect (and (shows ?w ?to)
                 (not (shows ?w ?from))))

  (:action turn-down
    :parameters (?w - dial ?from - digit ?to - digit)
    :precondition (and (shows ?w ?from) (next-digit ?to ?from)
                       (not (exists (?o - dial) (and (not (= ?o ?w)) (shows ?o ?to)))))
    :effect (and (shows ?w ?to)
                 (not (shows ?w ?from))))

  (:action open-lock
    :parameters ()
    :precondition (and (locked)
                       (forall (?w - dial)
                         (exists (?d - digit) (and (shows ?w ?d) (secret ?w ?d)))))
    :effect (and (open)
                 (not (locked))))

  (:action reset-code
    :parameters (?w - dial ?old - digit ?new - digit)
    :precondition (and (open) (secret ?w ?old) (shows ?w ?new) (not (= ?old ?new)))
    :effect (and (secret ?w ?new)
                 (not (secret ?w ?old))))

  (:action snap-shut
    :parameters ()
    :precondition (open)
    :effect (and (locked)
                 (not (open)))))
