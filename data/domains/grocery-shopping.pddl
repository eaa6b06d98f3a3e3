(define (domain grocery-shopping)
  (:requirements :strips :typing)
  (:types area product kind amount)
  (:constants entrance till - area)
  (:predicates
    (shopper-at ?a - area)
    (aisle-link ?from - area ?to - area)
    (has-basket)
    (shelved ?p - product ?a - area)
    (kind-of ?p - product ?k - kind)
    (in-basket ?p - product)
    (price ?p - product ?m - amount)
    (wallet ?m - amount)
    (difference ?total - amount ?cost - amount ?rest - amount)
    (got-kind ?k - kind))

  (:action walk
    :parameters (?from - area ?to - area)
    :precondition (and (shopper-at ?from) (aisle-link ?from ?to))
    :effect (and (shopper-at ?to)
                 (not (shopper-at ?from))))

  (:action take-basket
    :parameters ()
    :precondition (shopper-at entrance)
    :effect (has-basket))

  (:action pick-item
    :parameters (?p - product ?a - area)
    :precondition (and (shopper-at ?a) (shelved ?p ?a) (has-basket))
    :effect (and (in-basket ?p)
                 (not (shelved ?p ?a))))

  (:action pay-for
    :parameters (?p - product ?k - kind ?total - amount ?cost - amount ?rest - amount)
    :precondition (and (shopper-at till) (in-basket ?p) (kind-of ?p ?k)
                       (price ?p ?cost) (wallet ?total) (difference ?total ?cost ?rest))
    :effect (and (got-kind ?k)
                 (wallet ?rest)
                 (not (wallet ?total))
                 (not (in-basket ?p)))))
