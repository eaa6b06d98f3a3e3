(define (domain grocery-shopping)
  (:requirements :strips :typing)
  (:types area product kind amount count)
  (:constants entrance till - area)
  (:predicates
    (shopper-at ?a - area)
    (aisle-link ?from - area ?to - area)
    (has-basket)
    (shelved ?p - product ?a - area)
    (kind-of ?p - product ?k - kind)
    (in-basket ?p - product)
    (basket-load ?n - count)
    (count-step ?fewer - count ?more - count)
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
    :parameters (?p - product ?a - area ?before - count ?after - count)
    :precondition (and (shopper-at ?a) (shelved ?p ?a) (has-basket)
                       (basket-load ?before) (count-step ?before ?after))
    :effect (and (in-basket ?p)
                 (basket-load ?after)
                 (not (basket-load ?before))
                 (not (shelved ?p ?a))))

  (:action pay-for
    :parameters (?p - product ?k - kind ?total - amount ?cost - amount ?rest - amount
                 ?before - count ?after - count)
    :precondition (and (shopper-at till) (in-basket ?p) (kind-of ?p ?k)
                       (price ?p ?cost) (wallet ?total) (difference ?total ?cost ?rest)
                       (basket-load ?before) (count-step ?after ?before))
    :effect (and (got-kind ?k)
                 (wallet ?rest)
                 (basket-load ?after)
                 (not (wallet ?total))
                 (not (basket-load ?before))
                 (not (in-basket ?p)))))
