(define (domain kitchen-cooking)
  (:requirements :strips :typing)
  (:types ingredient knife board pan burner plate)
  (:predicates
    (on-counter ?i - ingredient)
    (on-board ?i - ingredient ?cb - board)
    (board-free ?cb - board)
    (whole ?i - ingredient)
    (chopped ?i - ingredient)
    (knife-clean ?k - knife)
    (knife-dirty ?k - knife)
    (in-pan ?i - ingredient ?p - pan)
    (cooked ?i - ingredient)
    (on-plate ?i - ingredient ?pl - plate)
    (pan-on-burner ?p - pan ?b - burner)
    (pan-on-counter ?p - pan)
    (burner-free ?b - burner)
    (burner-lit ?b - burner)
    (burner-off ?b - burner))

  (:action put-on-board
    :parameters (?i - ingredient ?cb - board)
    :precondition (and (on-counter ?i) (board-free ?cb))
    :effect (and (on-board ?i ?cb)
                 (not (on-counter ?i))
                 (not (board-free ?cb))))

  (:action chop
    :parameters (?i - ingredient ?cb - board ?k - knife)
    :precondition (and (on-board ?i ?cb) (whole ?i) (knife-clean ?k))
    :effect (and (chopped ?i)
                 (knife-dirty ?k)
                 (not (whole ?i))
                 (not (knife-clean ?k))))

  (:action wash-knife
    :parameters (?k - knife)
    :precondition (knife-dirty ?k)
    :effect (and (knife-clean ?k)
                 (not (knife-dirty ?k))))

  (:action scrape-into-pan
    :parameters (?i - ingredient ?cb - board ?p - pan)
    :precondition (and (on-board ?i ?cb) (chopped ?i))
    :effect (and (in-pan ?i ?p)
                 (board-free ?cb)
                 (not (on-board ?i ?cb))))

  (:action place-pan
    :parameters (?p - pan ?b - burner)
    :precondition (and (pan-on-counter ?p) (burner-free ?b))
    :effect (and (pan-on-burner ?p ?b)
                 (not (pan-on-counter ?p))
                 (not (burner-free ?b))))

  (:action take-pan-off
    :parameters (?p - pan ?b - burner)
    :precondition (pan-on-burner ?p ?b)
    :effect (and (pan-on-counter ?p)
                 (burner-free ?b)
                 (not (pan-on-burner ?p ?b))))

  (:action light-burner
    :parameters (?b - burner)
    :precondition (burner-off ?b)
    :effect (and (burner-lit ?b)
                 (not (burner-off ?b))))

  (:action turn-off-burner
    :parameters (?b - burner)
    :precondition (burner-lit ?b)
    :effect (and (burner-off ?b)
                 (not (burner-lit ?b))))

  (:action cook
    :parameters (?i - ingredient ?p - pan ?b - burner)
    :precondition (and (in-pan ?i ?p) (chopped ?i) (pan-on-burner ?p ?b) (burner-lit ?b))
    :effect (cooked ?i))

  (:action serve-onto-plate
    :parameters (?i - ingredient ?p - pan ?pl - plate)
    :precondition (and (in-pan ?i ?p) (cooked ?i) (pan-on-counter ?p))
    :effect (and (on-plate ?i ?pl)
                 (not (in-pan ?i ?p)))))
