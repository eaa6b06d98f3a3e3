(define (problem mail-carrier-p01)
  (:domain mail-carrier)
  (:objects pat - carrier
            office elm-street - place
            card - letter
            n0 n1 - space)
  (:init (carrier-at pat office) (post-office office)
         (street office elm-street) (street elm-street office)
         (bag-space pat n1) (space-next n0 n1)
         (letter-at card office) (addressed-to card elm-street))
  (:goal (delivered card)))
