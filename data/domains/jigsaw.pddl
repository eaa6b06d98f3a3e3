(define (domain jigsaw)
  (:requirements :strips :typing)
  (:types piece slot)
  (:predicates
    (loose ?p - piece)
    (holding ?p - piece)
    (hand-free)
    (face-up ?p - piece)
    (face-down ?p - piece)
    (placed ?p - piece ?s - slot)
    (slot-empty ?s - slot)
    (right-of ?s - slot ?right - slot)
    (below ?s - slot ?under - slot)
    (joins-right ?p - piece ?right - piece)
    (joins-below ?p - piece ?under - piece)
    (corner-piece ?p - piece)
    (corner-slot ?s - slot))

  (:action pick-up
    :parameters (?p - piece)
    :precondition (and (loose ?p) (hand-free))
    :effect (and (holding ?p)
                 (not (loose ?p))
                 (not (hand-free))))

  (:action put-down
    :parameters (?p - piece)
    :precondition (holding ?p)
    :effect (and (loose ?p)
                 (hand-free)
                 (not (holding ?p))))

  (:action turn-over
    :parameters (?p - piece)
    :precondition (and (holding ?p) (face-down ?p))
    :effect (and (face-up ?p)
                 (not (face-down ?p))))

  (:action place-corner
    :parameters (?p - piece ?s - slot)
    :precondition (and (holding ?p) (face-up ?p) (corner-piece ?p)
                       (corner-slot ?s) (slot-empty ?s))
    :effect (and (placed ?p ?s)
                 (hand-free)
                 (not (holding ?p))
                 (not (slot-empty ?s))))

  (:action attach-right
    :parameters (?p - piece ?left - piece ?s - slot ?target - slot)
    :precondition (and (holding ?p) (face-up ?p) (placed ?left ?s)
                       (right-of ?s ?target) (slot-empty ?target) (joins-right ?left ?p))
    :effect (and (placed ?p ?target)
                 (hand-free)
                 (not (holding ?p))
                 (not (slot-empty ?target))))

  (:action attach-below
    :parameters (?p - piece ?upper - piece ?s - slot ?target - slot)
    :precondition (and (holding ?p) (face-up ?p) (placed ?upper ?s)
                       (below ?s ?target) (slot-empty ?target) (joins-below ?upper ?p))
    :effect (and (placed ?p ?target)
                 (hand-free)
                 (not (holding ?p))
                 (not (slot-empty ?target)))))
