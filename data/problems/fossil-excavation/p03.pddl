(define (problem fossil-excavation-p03)
  (:domain fossil-excavation)
  (:objects mary-a - worker
            lab-a pit-a - plot
            ammonite-a - fossil
            surface-a shallow-a - depth
            crate1-a - crate
            mary-b dev-b - worker
            lab-b trench-a-b trench-b-b - plot
            trilobite-b fern-b femur-b skull-b - fossil
            surface-b shallow-b middle-b deep-b - depth
            crate1-b crate2-b crate3-b crate4-b - crate)
  (:init
    (worker-at mary-a pit-a) (adjacent lab-a pit-a) (adjacent pit-a lab-a) (field-lab lab-a)
    (deeper surface-a shallow-a) (dug-to pit-a surface-a) (layer-clear pit-a surface-a) (fossil-in ammonite-a pit-a shallow-a)
    (buried ammonite-a) (crate-at crate1-a pit-a) (crate-empty crate1-a) (worker-at mary-b lab-b)
    (worker-at dev-b trench-b-b) (adjacent lab-b trench-a-b) (adjacent trench-a-b lab-b) (adjacent trench-a-b trench-b-b)
    (adjacent trench-b-b trench-a-b) (field-lab lab-b) (deeper surface-b shallow-b) (deeper shallow-b middle-b)
    (deeper middle-b deep-b) (dug-to trench-a-b surface-b) (layer-clear trench-a-b surface-b) (layer-clear trench-a-b shallow-b)
    (dug-to trench-b-b surface-b) (layer-clear trench-b-b surface-b) (layer-clear trench-b-b middle-b) (fossil-in trilobite-b trench-a-b middle-b)
    (buried trilobite-b) (fossil-in fern-b trench-a-b deep-b) (buried fern-b) (fossil-in femur-b trench-b-b shallow-b)
    (buried femur-b) (fossil-in skull-b trench-b-b deep-b) (buried skull-b) (crate-at crate1-b lab-b)
    (crate-empty crate1-b) (crate-at crate2-b lab-b) (crate-empty crate2-b) (crate-at crate3-b trench-b-b)
    (crate-empty crate3-b) (crate-at crate4-b trench-b-b) (crate-empty crate4-b))
  (:goal (and (catalogued ammonite-a)
              (catalogued trilobite-b) (catalogued skull-b) (in-crate fern-b crate2-b))))
