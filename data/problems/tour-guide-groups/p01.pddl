(define (problem tour-guide-groups-p01)
  (:domain tour-guide-groups)
  (:objects main-square - plaza
            cathedral - site
            anna - guide
            school-trip - group
            english - language)
  (:init (path main-square cathedral) (path cathedral main-square)
         (group-at school-trip main-square)
         (guide-at anna main-square) (guide-free anna)
         (speaks anna english) (group-language school-trip english)
         (licensed anna cathedral))
  (:goal (and (visited school-trip cathedral) (group-at school-trip main-square))))
