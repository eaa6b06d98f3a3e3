(define (problem cell-culture-p03)
  (:domain cell-culture)
  (:objects hela-a - cell-line
            vial1-a - vial
            t75-a - flask
            inc1-a - incubator
            dmem1-a - medium
            sparse-a confluent-a - confluence
            hek-b cho-b - cell-line
            vial-hek-b vial-cho-b - vial
            flask1-b flask2-b flask3-b flask4-b - flask
            inc-top-b inc-bottom-b - incubator
            med1-b med2-b med3-b med4-b med5-b - medium
            sparse-b half-b confluent-b - confluence)
  (:init
    (vial-of vial1-a hela-a) (vial-frozen vial1-a) (flask-sterile t75-a) (on-bench t75-a)
    (incubator-free inc1-a) (medium-fresh dmem1-a) (grows sparse-a confluent-a) (seeding-level sparse-a)
    (split-ready confluent-a) (vial-of vial-hek-b hek-b) (vial-frozen vial-hek-b) (vial-of vial-cho-b cho-b)
    (vial-frozen vial-cho-b) (flask-sterile flask1-b) (flask-sterile flask2-b) (flask-sterile flask3-b)
    (flask-sterile flask4-b) (on-bench flask1-b) (on-bench flask2-b) (on-bench flask3-b)
    (on-bench flask4-b) (incubator-free inc-top-b) (incubator-free inc-bottom-b) (medium-fresh med1-b)
    (medium-fresh med2-b) (medium-fresh med3-b) (medium-fresh med4-b) (medium-fresh med5-b)
    (grows sparse-b half-b) (grows half-b confluent-b) (seeding-level half-b) (split-ready confluent-b))
  (:goal (and (harvested t75-a) (culture-of t75-a hela-a)
              (harvested flask1-b) (harvested flask2-b) (harvested flask3-b)
              (culture-of flask1-b hek-b) (culture-of flask2-b hek-b) (culture-of flask3-b cho-b))))
