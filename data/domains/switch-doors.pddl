(define (domain switch-doors)
  (:requirements :strips :typing :negative-preconditions :conditional-effects)
  (:types room door lever button gem)
  (:predicates
    (in ?r - room)
    (connects ?d - door ?from - room ?to - room)
    (open ?d - door)
    (lever-in ?l - lever ?r - room)
    (lever-up ?l - lever)
    (opens-when-up ?l - lever ?d - door)
    (opens-when-down ?l - lever ?d - door)
    (button-in ?b - button ?r - room)
    (toggles ?b - button ?d - door)
    (gem-in ?g - gem ?r - room)
    (holding ?g - gem))

  (:action walk
    :parameters (?from - room ?to - room ?d - door)
    :precondition (and (in ?from) (connects ?d ?from ?to) (open ?d))
    :effect (and (in ?to)
                 (not (in ?from))))

  (:action raise-lever
    :parameters (?l - lever ?r - room)
    :precondition (and (in ?r) (lever-in ?l ?r) (not (lever-up ?l)))
    :effect (and (lever-up ?l)
                 (forall (?d - door)
                   (and (when (opens-when-up ?l ?d) (open ?d))
                        (when (opens-when-down ?l ?d) (not (open ?d)))))))

  (:action lower-lever
    :parameters (?l - lever ?r - room)
    :precondition (and (in ?r) (lever-in ?l ?r) (lever-up ?l))
    :effect (and (not (lever-up ?l))
                 (forall (?d - door)
                   (and (when (opens-when-down ?l ?d) (open ?d))
                        (when (opens-when-up ?l ?d) (not (open ?d)))))))

  (:action press-button
    :parameters (?b - button ?r - room)
    :precondition (and (in ?r) (button-in ?b ?r))
    :effect (forall (?d - door)
              (and (when (and (toggles ?b ?d) (open ?d)) (not (open ?d)))
                   (when (and (toggles ?b ?d) (not (open ?d))) (open ?d)))))

  (:action pick-up
    :parameters (?g - gem ?r - room)
    :precondition (and (in ?r) (gem-in ?g ?r))
    :effect (and (holding ?g)
                 (not (gem-in ?g ?r)))))
