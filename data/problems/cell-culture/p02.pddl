(define (problem cell-culture-p02)
  (:domain cell-culture)
  (:objects
    hek cho - cell-line
    vial-hek vial-cho - vial
    flask1 flask2 flask3 flask4 - flask
    inc-top inc-bottom - incubator
    med1 med2 med3 med4 med5 - medium
    sparse half confluent - confluence)
  (:init
    (vial-of vial-hek hek) (vial-frozen vial-hek)
    (vial-of vial-cho cho) (vial-frozen vial-cho)
    (flask-sterile flask1) (flask-sterile flask2)
    (flask-sterile flask3) (flask-sterile flask4)
    (on-bench flask1) (on-bench flask2) (on-bench flask3) (on-bench flask4)
    (incubator-free inc-top) (incubator-free inc-bottom)
    (medium-fresh med1) (medium-fresh med2) (medium-fresh med3)
    (medium-fresh med4) (medium-fresh med5)
    (grows sparse half) (grows half confluent)
    (seeding-level half) (split-ready confluent))
  (:goal (and (harvested flask1) (harvested flask2) (harvested flask3)
              (culture-of flask1 hek) (culture-of flask2 hek) (culture-of flask3 cho))))
