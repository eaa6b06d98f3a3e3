(define (problem oil-refinery-p01)
  (:domain oil-refinery)
  (:objects
    crude1 naphtha1 residue1 - lot
    terminal refinery depot - site
    col1 - column
    blender1 - blender)
  (:init
    (crude crude1) (lot-at crude1 terminal)
    (light-cut crude1 naphtha1) (heavy-cut crude1 residue1)
    (pending naphtha1) (pending residue1)
    (pipeline terminal refinery) (pipeline refinery depot)
    (road terminal refinery) (road refinery depot)
    (column-at col1 refinery) (column-ready col1)
    (blender-at blender1 refinery)
    (= (total-cost) 0))
  (:goal (lot-at naphtha1 depot))
  (:metric minimize (total-cost)))
