(define (problem oil-refinery-p03)
  (:domain oil-refinery)
  (:objects crude1-a naphtha1-a residue1-a - lot
            terminal-a refinery-a depot-a - site
            col1-a - column
            blender1-a - blender
            crude-n-b naphtha-n-b gasoil-n-b crude-s-b naphtha-s-b gasoil-s-b gasoline-b diesel-b - lot
            north-terminal-b south-terminal-b refinery-b tank-farm-b city-b port-b - site
            col1-b - column
            blender1-b - blender)
  (:init
    (crude crude1-a) (lot-at crude1-a terminal-a) (light-cut crude1-a naphtha1-a) (heavy-cut crude1-a residue1-a)
    (pending naphtha1-a) (pending residue1-a) (pipeline terminal-a refinery-a) (pipeline refinery-a depot-a)
    (road terminal-a refinery-a) (road refinery-a depot-a) (column-at col1-a refinery-a) (column-ready col1-a)
    (blender-at blender1-a refinery-a) (= (total-cost) 0) (crude crude-n-b) (lot-at crude-n-b north-terminal-b)
    (crude crude-s-b) (lot-at crude-s-b south-terminal-b) (light-cut crude-n-b naphtha-n-b) (heavy-cut crude-n-b gasoil-n-b)
    (light-cut crude-s-b naphtha-s-b) (heavy-cut crude-s-b gasoil-s-b) (pending naphtha-n-b) (pending gasoil-n-b)
    (pending naphtha-s-b) (pending gasoil-s-b) (pending gasoline-b) (pending diesel-b)
    (recipe gasoline-b naphtha-n-b naphtha-s-b) (recipe diesel-b gasoil-n-b gasoil-s-b) (pipeline north-terminal-b refinery-b) (pipeline south-terminal-b north-terminal-b)
    (pipeline refinery-b tank-farm-b) (pipeline tank-farm-b city-b) (road south-terminal-b refinery-b) (road tank-farm-b port-b)
    (road refinery-b city-b) (road city-b port-b) (road port-b city-b) (column-at col1-b refinery-b)
    (column-fouled col1-b) (blender-at blender1-b tank-farm-b))
  (:goal (and (lot-at naphtha1-a depot-a)
              (lot-at gasoline-b city-b) (lot-at diesel-b port-b)))
  (:metric minimize (total-cost)))
