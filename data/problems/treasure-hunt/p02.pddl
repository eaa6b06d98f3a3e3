(define (problem treasure-hunt-p02)
  (:domain treasure-hunt)
  (:objects camp-site jetty lagoon cliff ruins grove - spot
            torn-map riddle - clue
            small-chest gold-chest - chest)
  (:init
    (hunter-at jetty) (camp camp-site) (hands-free)
    (shovel-at camp-site)
    (trail jetty camp-site) (trail camp-site jetty)
    (trail camp-site lagoon) (trail lagoon camp-site)
    (trail lagoon cliff) (trail cliff lagoon)
    (trail camp-site ruins) (trail ruins camp-site)
    (trail ruins grove) (trail grove ruins)
    (clue-at torn-map jetty) (reveals torn-map cliff)
    (clue-inside riddle small-chest) (reveals riddle grove)
    (buried small-chest cliff) (buried gold-chest grove))
  (:goal (and (stored small-chest) (stored gold-chest))))
