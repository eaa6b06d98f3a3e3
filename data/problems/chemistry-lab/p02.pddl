(define (problem chemistry-lab-p02)
  (:domain chemistry-lab)
  (:objects
    salicylic-acid acetic-anhydride aspirin ethanol sulfuric-acid ethyl-acetate acetic-acid - substance
    flask-a flask-b - flask
    burner1 - burner)
  (:init
    (stocked salicylic-acid) (stocked acetic-anhydride) (stocked ethanol)
    (stocked sulfuric-acid)
    (reaction salicylic-acid acetic-anhydride aspirin)
    (reaction acetic-anhydride ethanol acetic-acid)
    (reaction acetic-acid ethanol ethyl-acetate)
    (flask-clean flask-a) (on-bench flask-a)
    (flask-dirty flask-b) (on-bench flask-b)
    (burner-free burner1))
  (:goal (and (stocked aspirin) (stocked ethyl-acetate)
              (flask-clean flask-a) (flask-clean flask-b))))
