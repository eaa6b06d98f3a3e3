(define (problem pcr-lab-p03)
  (:domain pcr-lab)
  (:objects swab1-a - sample
            tube1-a - tube
            mix1-a - mix-aliquot
            cycler1-a - thermocycler
            gel1-a - gel
            lane1-a lane2-a - lane
            blood-b leaf-b soil-b - sample
            tube1-b tube2-b tube3-b tube4-b - tube
            mix1-b mix2-b mix3-b - mix-aliquot
            cycler1-b - thermocycler
            gel1-b gel2-b - gel
            g1-l1-b g1-l2-b g2-l1-b g2-l2-b - lane)
  (:init
    (raw swab1-a) (thawed mix1-a) (lane-of lane1-a gel1-a) (lane-of lane2-a gel1-a)
    (raw blood-b) (raw leaf-b) (raw soil-b) (tube-used tube2-b)
    (aliquot-used mix3-b) (lid-closed cycler1-b) (gel-run gel1-b) (lane-of g1-l1-b gel1-b)
    (lane-of g1-l2-b gel1-b) (lane-of g2-l1-b gel2-b) (lane-of g2-l2-b gel2-b) (lane-used g1-l1-b))
  (:goal (and (analysed swab1-a)
              (analysed blood-b) (analysed leaf-b)
              (not (in-cycler tube1-b cycler1-b)) (not (in-cycler tube2-b cycler1-b))
              (not (in-cycler tube3-b cycler1-b)) (not (in-cycler tube4-b cycler1-b)))))
