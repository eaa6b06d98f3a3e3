(define (problem oil-refinery-p02)
  (:domain oil-refinery)
  (:objects
    crude-n naphtha-n gasoil-n crude-s naphtha-s gasoil-s gasoline diesel - lot
    north-terminal south-terminal refinery tank-farm city port - site
    col1 - column
    blender1 - blender)
  (:init
    (crude crude-n) (lot-at crude-n north-terminal)
    (crude crude-s) (lot-at crude-s south-terminal)
    (light-cut crude-n naphtha-n) (heavy-cut crude-n gasoil-n)
    (light-cut crude-s naphtha-s) (heavy-cut crude-s gasoil-s)
    (pending naphtha-n) (pending gasoil-n) (pending naphtha-s) (pending gasoil-s)
    (pending gasoline) (pending diesel)
    (recipe gasoline naphtha-n naphtha-s)
    (recipe diesel gasoil-n gasoil-s)
    (pipeline north-terminal refinery) (pipeline south-terminal north-terminal)
    (pipeline refinery tank-farm) (pipeline tank-farm city)
    (road south-terminal refinery) (road tank-farm port)
    (road refinery city) (road city port) (road port city)
    (column-at col1 refinery) (column-fouled col1)
    (blender-at blender1 tank-farm)
    (= (total-cost) 0))
  (:goal (and (lot-at gasoline city) (lot-at diesel port)))
  (:metric minimize (total-cost)))
