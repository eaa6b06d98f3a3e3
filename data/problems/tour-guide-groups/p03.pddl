(define (problem tour-guide-groups-p03)
  (:domain tour-guide-groups)
  (:objects main-square-a - plaza
            cathedral-a - site
            anna-a - guide
            school-trip-a - group
            english-a - language
            main-square-b harbour-front-b - plaza
            cathedral-b museum-b castle-b old-mill-b - site
            anna-b bruno-b clara-b - guide
            school-trip-b seniors-b cruise-party-b - group
            english-b german-b italian-b - language)
  (:init
    (path main-square-a cathedral-a) (path cathedral-a main-square-a) (group-at school-trip-a main-square-a) (guide-at anna-a main-square-a)
    (guide-free anna-a) (speaks anna-a english-a) (group-language school-trip-a english-a) (licensed anna-a cathedral-a)
    (path main-square-b cathedral-b) (path cathedral-b main-square-b) (path main-square-b museum-b) (path museum-b main-square-b)
    (path cathedral-b museum-b) (path museum-b cathedral-b) (path museum-b castle-b) (path castle-b museum-b)
    (path castle-b harbour-front-b) (path harbour-front-b castle-b) (path harbour-front-b old-mill-b) (path old-mill-b harbour-front-b)
    (group-at school-trip-b main-square-b) (group-at seniors-b main-square-b) (group-at cruise-party-b harbour-front-b) (guide-at anna-b main-square-b)
    (guide-free anna-b) (guide-at bruno-b main-square-b) (guide-free bruno-b) (guide-at clara-b harbour-front-b)
    (guide-free clara-b) (speaks anna-b english-b) (speaks anna-b italian-b) (speaks bruno-b german-b)
    (speaks bruno-b english-b) (speaks clara-b italian-b) (speaks clara-b german-b) (group-language school-trip-b english-b)
    (group-language seniors-b german-b) (group-language cruise-party-b italian-b) (licensed anna-b cathedral-b) (licensed anna-b museum-b)
    (licensed bruno-b museum-b) (licensed bruno-b cathedral-b) (licensed bruno-b castle-b) (licensed clara-b old-mill-b)
    (licensed clara-b castle-b))
  (:goal (and (visited school-trip-a cathedral-a) (group-at school-trip-a main-square-a)
              (visited school-trip-b cathedral-b) (visited school-trip-b museum-b)
              (visited seniors-b museum-b) (visited seniors-b castle-b)
              (visited cruise-party-b old-mill-b) (visited cruise-party-b castle-b)
              (group-at school-trip-b main-square-b) (group-at seniors-b harbour-front-b)
              (group-at cruise-party-b harbour-front-b)
              (guide-at anna-b harbour-front-b))))
