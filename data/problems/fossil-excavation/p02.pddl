(define (problem fossil-excavation-p02)
  (:domain fossil-excavation)
  (:objects
    mary dev - worker
    lab trench-a trench-b - plot
    trilobite fern femur skull - fossil
    surface shallow middle deep - depth
    crate1 crate2 crate3 crate4 - crate)
  (:init
    (worker-at mary lab) (worker-at dev trench-b)
    (adjacent lab trench-a) (adjacent trench-a lab)
    (adjacent trench-a trench-b) (adjacent trench-b trench-a)
    (field-lab lab)
    (deeper surface shallow) (deeper shallow middle) (deeper middle deep)
    (dug-to trench-a surface) (layer-clear trench-a surface)
    (layer-clear trench-a shallow)
    (dug-to trench-b surface) (layer-clear trench-b surface)
    (layer-clear trench-b middle)
    (fossil-in trilobite trench-a middle) (buried trilobite)
    (fossil-in fern trench-a deep) (buried fern)
    (fossil-in femur trench-b shallow) (buried femur)
    (fossil-in skull trench-b deep) (buried skull)
    (crate-at crate1 lab) (crate-empty crate1)
    (crate-at crate2 lab) (crate-empty crate2)
    (crate-at crate3 trench-b) (crate-empty crate3)
    (crate-at crate4 trench-b) (crate-empty crate4))
  (:goal (and (catalogued trilobite) (catalogued skull) (in-crate fern crate2))))
