(define (domain mail-carrier)
  (:requirements :strips :typing)
  (:types carrier place letter space)
  (:predicates
    (carrier-at ?c - carrier ?p - place)
    (street ?from - place ?to - place)
    (post-office ?p - place)
    (letter-at ?l - letter ?p - place)
    (in-bag ?l - letter ?c - carrier)
    (bag-space ?c - carrier ?n - space)
    (space-next ?n - space ?m - space)
    (addressed-to ?l - letter ?p - place)
    (postmarked ?l - letter)
    (delivered ?l - letter))

  (:action walk
    :parameters (?c - carrier ?from - place ?to - place)
    :precondition (and (carrier-at ?c ?from) (street ?from ?to))
    :effect (and (carrier-at ?c ?to)
                 (not (carrier-at ?c ?from))))

  (:action collect
    :parameters (?c - carrier ?l - letter ?p - place ?before - space ?after - space)
    :precondition (and (carrier-at ?c ?p) (letter-at ?l ?p)
                       (bag-space ?c ?before) (space-next ?after ?before))
    :effect (and (in-bag ?l ?c)
                 (bag-space ?c ?after)
                 (not (letter-at ?l ?p))
                 (not (bag-space ?c ?before))))

  (:action drop-at-office
    :parameters (?c - carrier ?l - letter ?p - place ?before - space ?after - space)
    :precondition (and (carrier-at ?c ?p) (post-office ?p) (in-bag ?l ?c)
                       (bag-space ?c ?before) (space-next ?before ?after))
    :effect (and (letter-at ?l ?p)
                 (bag-space ?c ?after)
                 (not (in-bag ?l ?c))
                 (not (bag-space ?c ?before))))

  (:action postmark
    :parameters (?l - letter ?p - place)
    :precondition (and (letter-at ?l ?p) (post-office ?p))
    :effect (postmarked ?l))

  (:action deliver
    :parameters (?c - carrier ?l - letter ?p - place ?before - space ?after - space)
    :precondition (and (carrier-at ?c ?p) (in-bag ?l ?c) (addressed-to ?l ?p) (postmarked ?l)
                       (bag-space ?c ?before) (space-next ?before ?after))
    :effect (and (delivered ?l)
                 (bag-space ?c ?after)
                 (not (in-bag ?l ?c))
                 (not (bag-space ?c ?before)))))
