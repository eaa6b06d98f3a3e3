(define (problem vaccine-cold-chain-p01)
  (:domain vaccine-cold-chain)
  (:objects depot clinic - location
            van1 - van
            box1 - box
            depot-freezer clinic-freezer - freezer
            k0 k1 k2 - level)
  (:init (road depot clinic) (road clinic depot)
         (next k0 k1) (next k1 k2)
         (van-at van1 depot) (warm van1)
         (coolant van1 k2) (full-coolant k2) (charging-point depot)
         (van-space van1 k1) (van-capacity van1 k1)
         (freezer-at depot-freezer depot) (freezer-at clinic-freezer clinic)
         (in-freezer box1 depot-freezer)
         (freezer-space depot-freezer k1) (freezer-space clinic-freezer k2))
  (:goal (in-freezer box1 clinic-freezer)))
