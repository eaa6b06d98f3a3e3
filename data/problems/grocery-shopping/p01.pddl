(define (problem grocery-shopping-p01)
  (:domain grocery-shopping)
  (:objects dairy-aisle - area
            milk-carton - product milk - kind
            e0 e1 e2 e3 - amount)
  (:init (shopper-at entrance)
         (aisle-link entrance dairy-aisle) (aisle-link dairy-aisle entrance)
         (aisle-link dairy-aisle till) (aisle-link till entrance)
         (shelved milk-carton dairy-aisle) (kind-of milk-carton milk)
         (price milk-carton e2) (wallet e3)
         (difference e3 e2 e1) (difference e2 e2 e0) (difference e3 e1 e2)
         (difference e2 e1 e1) (difference e1 e1 e0))
  (:goal (and (got-kind milk) (shopper-at entrance))))
