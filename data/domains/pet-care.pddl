(define (domain pet-care)
  (:requirements :strips :typing)
  (:types place pet gear - object
          dog cat - pet
          leash brush bowl - gear)
  (:predicates
    (caretaker-at ?pl - place)
    (connected ?from - place ?to - place)
    (park ?pl - place)
    (food-at ?pl - place)
    (pet-at ?p - pet ?pl - place)
    (hungry ?p - pet)
    (fed ?p - pet)
    (groomed ?p - pet)
    (walked ?d - dog)
    (bowl-of ?b - bowl ?p - pet)
    (bowl-full ?b - bowl)
    (bowl-empty ?b - bowl)
    (gear-at ?g - gear ?pl - place)
    (carrying ?g - gear)
    (leashed ?d - dog ?l - leash)
    (unaccompanied))

  (:action move
    :parameters (?from - place ?to - place)
    :precondition (and (caretaker-at ?from) (connected ?from ?to) (unaccompanied))
    :effect (and (caretaker-at ?to)
                 (not (caretaker-at ?from))))

  (:action pick-up-gear
    :parameters (?g - gear ?pl - place)
    :precondition (and (caretaker-at ?pl) (gear-at ?g ?pl))
    :effect (and (carrying ?g)
                 (not (gear-at ?g ?pl))))

  (:action drop-gear
    :parameters (?g - gear ?pl - place)
    :precondition (and (caretaker-at ?pl) (carrying ?g))
    :effect (and (gear-at ?g ?pl)
                 (not (carrying ?g))))

  (:action fill-bowl
    :parameters (?b - bowl ?pl - place)
    :precondition (and (caretaker-at ?pl) (food-at ?pl) (carrying ?b) (bowl-empty ?b))
    :effect (and (bowl-full ?b)
                 (not (bowl-empty ?b))))

  (:action eat
    :parameters (?p - pet ?b - bowl ?pl - place)
    :precondition (and (pet-at ?p ?pl) (gear-at ?b ?pl) (bowl-of ?b ?p)
                       (bowl-full ?b) (hungry ?p))
    :effect (and (fed ?p)
                 (bowl-empty ?b)
                 (not (hungry ?p))
                 (not (bowl-full ?b))))

  (:action attach-leash
    :parameters (?d - dog ?l - leash ?pl - place)
    :precondition (and (caretaker-at ?pl) (pet-at ?d ?pl) (carrying ?l) (unaccompanied))
    :effect (and (leashed ?d ?l)
                 (not (carrying ?l))
                 (not (unaccompanied))))

  (:action walk-dog
    :parameters (?d - dog ?l - leash ?from - place ?to - place)
    :precondition (and (leashed ?d ?l) (caretaker-at ?from) (pet-at ?d ?from)
                       (connected ?from ?to))
    :effect (and (caretaker-at ?to)
                 (pet-at ?d ?to)
                 (not (caretaker-at ?from))
                 (not (pet-at ?d ?from))))

  (:action play-in-park
    :parameters (?d - dog ?l - leash ?pl - place)
    :precondition (and (leashed ?d ?l) (caretaker-at ?pl) (pet-at ?d ?pl) (park ?pl))
    :effect (walked ?d))

  (:action detach-leash
    :parameters (?d - dog ?l - leash ?pl - place)
    :precondition (and (leashed ?d ?l) (caretaker-at ?pl) (pet-at ?d ?pl))
    :effect (and (carrying ?l)
                 (unaccompanied)
                 (not (leashed ?d ?l))))

  (:action groom
    :parameters (?p - pet ?br - brush ?pl - place)
    :precondition (and (caretaker-at ?pl) (pet-at ?p ?pl) (carrying ?br) (fed ?p))
    :effect (groomed ?p)))
