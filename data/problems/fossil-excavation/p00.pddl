(define (problem fossil-excavation-p00)
  (:domain fossil-excavation)
  (:objects
    mary - worker
    lab pit - plot
    ammonite - fossil
    surface shallow - depth
    crate1 - crate)
  (:init
    (worker-at mary lab)
    (adjacent lab pit) (adjacent pit lab)
    (field-lab lab)
    (deeper surface shallow)
    (dug-to pit surface) (layer-clear pit surface)
    (fossil-in ammonite pit shallow) (buried ammonite)
    (crate-at crate1 pit) (crate-empty crate1))
  (:goal (catalogued ammonite)))
