(define (problem construction-site-p03)
  (:domain construction-site)
  (:objects yard-a - location
            plot1-a - site
            masons-a - crew
            digger-a - machine
            lorry-a - truck
            groundwork-a foundation-a walls-a roof-a finishing-a - stage
            yard-b junction-b - location
            plot1-b plot2-b - site
            concreters-b masons-b roofers-b fitters-b - crew
            digger-b crane-b - machine
            lorry-b - truck
            groundwork-b foundation-b walls-b roof-b finishing-b - stage)
  (:init
    (road yard-a plot1-a) (road plot1-a yard-a) (depot yard-a) (crew-at masons-a plot1-a)
    (machine-at digger-a yard-a) (truck-at lorry-a yard-a) (truck-empty lorry-a) (stage-order groundwork-a foundation-a)
    (stage-order foundation-a walls-a) (stage-order walls-a roof-a) (stage-order roof-a finishing-a) (needs-machine foundation-a)
    (needs-machine roof-a) (hand-work walls-a) (hand-work finishing-a) (crew-skill masons-a walls-a)
    (machine-role digger-a foundation-a) (done plot1-a foundation-a) (materials plot1-a finishing-a) (road yard-b junction-b)
    (road junction-b yard-b) (road junction-b plot1-b) (road plot1-b junction-b) (road junction-b plot2-b)
    (road plot2-b junction-b) (depot yard-b) (crew-at concreters-b yard-b) (crew-at masons-b plot1-b)
    (crew-at roofers-b junction-b) (crew-at fitters-b plot2-b) (machine-at digger-b plot2-b) (machine-at crane-b junction-b)
    (truck-at lorry-b yard-b) (truck-empty lorry-b) (stage-order groundwork-b foundation-b) (stage-order foundation-b walls-b)
    (stage-order walls-b roof-b) (stage-order roof-b finishing-b) (needs-machine foundation-b) (needs-machine roof-b)
    (hand-work walls-b) (hand-work finishing-b) (crew-skill concreters-b foundation-b) (crew-skill masons-b walls-b)
    (crew-skill roofers-b roof-b) (crew-skill fitters-b walls-b) (crew-skill masons-b finishing-b) (machine-role digger-b foundation-b)
    (machine-role crane-b roof-b) (done plot1-b walls-b) (done plot2-b groundwork-b) (materials plot2-b foundation-b)
    (materials plot1-b roof-b))
  (:goal (and (done plot1-a walls-a)
              (done plot1-b finishing-b) (done plot2-b walls-b))))
