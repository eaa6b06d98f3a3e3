(define (problem chemistry-lab-p01)
  (:domain chemistry-lab)
  (:objects
    vinegar baking-soda sodium-acetate - substance
    flask1 - flask
    bunsen - burner)
  (:init
    (stocked vinegar) (stocked baking-soda)
    (reaction vinegar baking-soda sodium-acetate)
    (flask-clean flask1) (on-bench flask1)
    (burner-free bunsen))
  (:goal (stocked sodium-acetate)))
