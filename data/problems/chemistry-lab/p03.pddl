(define (problem chemistry-lab-p03)
  (:domain chemistry-lab)
  (:objects vinegar-a baking-soda-a sodium-acetate-a - substance
            flask1-a - flask
            bunsen-a - burner
            salicylic-acid-b acetic-anhydride-b aspirin-b ethanol-b sulfuric-acid-b ethyl-acetate-b acetic-acid-b - substance
            flask-a-b flask-b-b - flask
            burner1-b - burner)
  (:init
    (stocked vinegar-a) (stocked baking-soda-a) (reaction vinegar-a baking-soda-a sodium-acetate-a) (flask-clean flask1-a)
    (on-bench flask1-a) (burner-free bunsen-a) (stocked salicylic-acid-b) (stocked acetic-anhydride-b)
    (stocked ethanol-b) (stocked sulfuric-acid-b) (reaction salicylic-acid-b acetic-anhydride-b aspirin-b) (reaction acetic-anhydride-b ethanol-b acetic-acid-b)
    (reaction acetic-acid-b ethanol-b ethyl-acetate-b) (flask-clean flask-a-b) (on-bench flask-a-b) (flask-dirty flask-b-b)
    (on-bench flask-b-b) (burner-free burner1-b))
  (:goal (and (stocked sodium-acetate-a)
              (stocked aspirin-b) (stocked ethyl-acetate-b)
              (flask-clean flask-a-b) (flask-clean flask-b-b))))
