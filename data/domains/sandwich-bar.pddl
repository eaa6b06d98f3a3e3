(define (domain sandwich-bar)
  (:requirements :strips :typing :negative-preconditions)
  (:types roll filling board place guest)
  (:predicates
    (in-breadbin ?r - roll)
    (gluten-free ?r - roll)
    (on-board ?r - roll ?bd - board)
    (board-empty ?bd - board)
    (crumbs ?bd - board)
    (filling-left ?f - filling)
    (filled ?r - roll)
    (ready ?r - roll)
    (carrying ?r - roll)
    (waiter-at ?pl - place)
    (pass-at ?pl - place)
    (guest-at ?g - guest ?pl - place)
    (coeliac ?g - guest)
    (served ?g - guest))

  (:action place-roll
    :parameters (?r - roll ?bd - board)
    :precondition (and (in-breadbin ?r) (not (gluten-free ?r)) (board-empty ?bd))
    :effect (and (on-board ?r ?bd)
                 (crumbs ?bd)
                 (not (in-breadbin ?r))
                 (not (board-empty ?bd))))

  (:action place-gluten-free-roll
    :parameters (?r - roll ?bd - board)
    :precondition (and (in-breadbin ?r) (gluten-free ?r) (board-empty ?bd) (not (crumbs ?bd)))
    :effect (and (on-board ?r ?bd)
                 (not (in-breadbin ?r))
                 (not (board-empty ?bd))))

  (:action wipe-board
    :parameters (?bd - board)
    :precondition (and (board-empty ?bd) (crumbs ?bd))
    :effect (not (crumbs ?bd)))

  (:action fill-roll
    :parameters (?r - roll ?bd - board ?f - filling)
    :precondition (and (on-board ?r ?bd) (filling-left ?f) (not (filled ?r)))
    :effect (and (filled ?r)
                 (not (filling-left ?f))))

  (:action put-on-pass
    :parameters (?r - roll ?bd - board)
    :precondition (and (on-board ?r ?bd) (filled ?r))
    :effect (and (ready ?r)
                 (board-empty ?bd)
                 (not (on-board ?r ?bd))))

  (:action pick-up-sandwich
    :parameters (?r - roll ?pl - place)
    :precondition (and (ready ?r) (waiter-at ?pl) (pass-at ?pl))
    :effect (and (carrying ?r)
                 (not (ready ?r))))

  (:action walk
    :parameters (?from - place ?to - place)
    :precondition (waiter-at ?from)
    :effect (and (waiter-at ?to)
                 (not (waiter-at ?from))))

  (:action serve
    :parameters (?r - roll ?g - guest ?pl - place)
    :precondition (and (carrying ?r) (waiter-at ?pl) (guest-at ?g ?pl)
                       (not (served ?g)) (not (coeliac ?g)))
    :effect (and (served ?g)
                 (not (carrying ?r))))

  (:action serve-coeliac
    :parameters (?r - roll ?g - guest ?pl - place)
    :precondition (and (carrying ?r) (waiter-at ?pl) (guest-at ?g ?pl)
                       (not (served ?g)) (coeliac ?g) (gluten-free ?r))
    :effect (and (served ?g)
                 (not (carrying ?r)))))
