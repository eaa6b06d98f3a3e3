(define (problem mail-carrier-p02)
  (:domain mail-carrier)
  (:objects pat - carrier
            office elm-street oak-lane pine-road - place
            card invoice parcel-note - letter
            n0 n1 n2 - space)
  (:init (carrier-at pat office) (post-office office)
         (street office elm-street) (street elm-street office)
         (street elm-street oak-lane) (street oak-lane elm-street)
         (street office pine-road) (street pine-road office)
         (bag-space pat n2) (space-next n0 n1) (space-next n1 n2)
         (letter-at card office) (addressed-to card oak-lane)
         (letter-at invoice office) (addressed-to invoice pine-road)
         (letter-at parcel-note oak-lane) (addressed-to parcel-note elm-street))
  (:goal (and (delivered card) (delivered invoice) (delivered parcel-note))))
