(define (domain escape-room)
  (:requirements :strips :typing :negative-preconditions :existential-preconditions)
  (:types spot container item - object
          key note - item)
  (:predicates
    (at ?s - spot)
    (connected ?from - spot ?to - spot)
    (lying-at ?i - item ?s - spot)
    (container-at ?c - container ?s - spot)
    (inside ?i - item ?c - container)
    (locked ?c - container)
    (fits ?k - key ?c - container)
    (code-opens ?n - note ?c - container)
    (carrying ?i - item)
    (exit-at ?s - spot)
    (opens-exit ?k - key)
    (escaped))

  (:action move
    :parameters (?from - spot ?to - spot)
    :precondition (and (at ?from) (connected ?from ?to))
    :effect (and (at ?to)
                 (not (at ?from))))

  (:action pick-up
    :parameters (?i - item ?s - spot)
    :precondition (and (at ?s) (lying-at ?i ?s))
    :effect (and (carrying ?i)
                 (not (lying-at ?i ?s))))

  (:action unlock-with-key
    :parameters (?c - container ?k - key ?s - spot)
    :precondition (and (at ?s) (container-at ?c ?s) (locked ?c)
                       (carrying ?k) (fits ?k ?c))
    :effect (not (locked ?c)))

  (:action unlock-with-code
    :parameters (?c - container ?n - note ?s - spot)
    :precondition (and (at ?s) (container-at ?c ?s) (locked ?c)
                       (carrying ?n) (code-opens ?n ?c))
    :effect (not (locked ?c)))

  (:action take-from
    :parameters (?i - item ?c - container ?s - spot)
    :precondition (and (at ?s) (container-at ?c ?s) (not (locked ?c)) (inside ?i ?c))
    :effect (and (carrying ?i)
                 (not (inside ?i ?c))))

  (:action escape
    :parameters (?s - spot)
    :precondition (and (at ?s) (exit-at ?s)
                       (exists (?k - key) (and (carrying ?k) (opens-exit ?k))))
    :effect (escaped)))
