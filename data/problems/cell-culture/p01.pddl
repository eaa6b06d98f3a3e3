(define (problem cell-culture-p01)
  (:domain cell-culture)
  (:objects
    hela - cell-line
    vial1 - vial
    t75 - flask
    inc1 - incubator
    dmem1 - medium
    sparse confluent - confluence)
  (:init
    (vial-of vial1 hela) (vial-frozen vial1)
    (flask-sterile t75) (on-bench t75)
    (incubator-free inc1)
    (medium-fresh dmem1)
    (grows sparse confluent)
    (seeding-level sparse) (split-ready confluent))
  (:goal (and (harvested t75) (culture-of t75 hela))))
