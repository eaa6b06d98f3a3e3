(define (problem pcr-lab-p02)
  (:domain pcr-lab)
  (:objects
    blood leaf soil - sample
    tube1 tube2 tube3 tube4 - tube
    mix1 mix2 mix3 - mix-aliquot
    cycler1 - thermocycler
    gel1 gel2 - gel
    g1-l1 g1-l2 g2-l1 g2-l2 - lane)
  (:init
    (raw blood) (raw leaf) (raw soil)
    (tube-used tube2)
    (aliquot-used mix3)
    (lid-closed cycler1)
    (gel-run gel1)
    (lane-of g1-l1 gel1) (lane-of g1-l2 gel1)
    (lane-of g2-l1 gel2) (lane-of g2-l2 gel2)
    (lane-used g1-l1))
  (:goal (and (analysed blood) (analysed leaf)
              (not (in-cycler tube1 cycler1)) (not (in-cycler tube2 cycler1))
              (not (in-cycler tube3 cycler1)) (not (in-cycler tube4 cycler1)))))
