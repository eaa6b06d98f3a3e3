(define (domain lightbulb-replacement)
  (:requirements :strips :typing :negative-preconditions)
  (:types room fixture bulb circuit ladder)
  (:predicates
    (person-at ?r - room)
    (door ?r1 - room ?r2 - room)
    (fixture-in ?f - fixture ?r - room)
    (on-circuit ?f - fixture ?c - circuit)
    (breaker-in ?c - circuit ?r - room)
    (power-on ?c - circuit)
    (ladder-stored ?l - ladder ?r - room)
    (ladder-under ?l - ladder ?f - fixture)
    (carrying-ladder ?l - ladder)
    (aloft)
    (reaching ?f - fixture)
    (bulb-in ?b - bulb ?f - fixture)
    (fitted ?f - fixture)
    (working ?f - fixture)
    (broken ?b - bulb)
    (spare-in ?b - bulb ?r - room)
    (holding ?b - bulb)
    (hands-busy)
    (bin-in ?r - room))

  (:action walk
    :parameters (?from - room ?to - room)
    :precondition (and (person-at ?from) (door ?from ?to) (not (aloft)))
    :effect (and (person-at ?to)
                 (not (person-at ?from))))

  (:action pick-up-ladder
    :parameters (?l - ladder ?r - room)
    :precondition (and (person-at ?r) (ladder-stored ?l ?r) (not (hands-busy)) (not (aloft)))
    :effect (and (carrying-ladder ?l)
                 (hands-busy)
                 (not (ladder-stored ?l ?r))))

  (:action set-up-ladder
    :parameters (?l - ladder ?f - fixture ?r - room)
    :precondition (and (person-at ?r) (carrying-ladder ?l) (fixture-in ?f ?r))
    :effect (and (ladder-under ?l ?f)
                 (not (carrying-ladder ?l))
                 (not (hands-busy))))

  (:action fold-ladder
    :parameters (?l - ladder ?f - fixture ?r - room)
    :precondition (and (person-at ?r) (ladder-under ?l ?f) (fixture-in ?f ?r)
                       (not (hands-busy)) (not (aloft)))
    :effect (and (carrying-ladder ?l)
                 (hands-busy)
                 (not (ladder-under ?l ?f))))

  (:action climb-up
    :parameters (?l - ladder ?f - fixture ?r - room)
    :precondition (and (person-at ?r) (fixture-in ?f ?r) (ladder-under ?l ?f) (not (aloft)))
    :effect (and (aloft)
                 (reaching ?f)))

  (:action climb-down
    :parameters (?f - fixture)
    :precondition (and (aloft) (reaching ?f))
    :effect (and (not (aloft))
                 (not (reaching ?f))))

  (:action switch-off-circuit
    :parameters (?c - circuit ?r - room)
    :precondition (and (person-at ?r) (breaker-in ?c ?r) (power-on ?c) (not (aloft)))
    :effect (not (power-on ?c)))

  (:action switch-on-circuit
    :parameters (?c - circuit ?r - room)
    :precondition (and (person-at ?r) (breaker-in ?c ?r) (not (power-on ?c)) (not (aloft)))
    :effect (power-on ?c))

  (:action take-spare
    :parameters (?b - bulb ?r - room)
    :precondition (and (person-at ?r) (spare-in ?b ?r) (not (hands-busy)) (not (aloft)))
    :effect (and (holding ?b)
                 (hands-busy)
                 (not (spare-in ?b ?r))))

  (:action remove-bulb
    :parameters (?b - bulb ?f - fixture ?c - circuit)
    :precondition (and (reaching ?f) (bulb-in ?b ?f) (on-circuit ?f ?c)
                       (not (power-on ?c)) (not (hands-busy)))
    :effect (and (holding ?b)
                 (hands-busy)
                 (not (bulb-in ?b ?f))
                 (not (fitted ?f))
                 (not (working ?f))))

  (:action install-bulb
    :parameters (?b - bulb ?f - fixture ?c - circuit)
    :precondition (and (reaching ?f) (holding ?b) (on-circuit ?f ?c)
                       (not (power-on ?c)) (not (fitted ?f)) (not (broken ?b)))
    :effect (and (bulb-in ?b ?f)
                 (fitted ?f)
                 (working ?f)
                 (not (holding ?b))
                 (not (hands-busy))))

  (:action discard-bulb
    :parameters (?b - bulb ?r - room)
    :precondition (and (person-at ?r) (bin-in ?r) (holding ?b) (broken ?b) (not (aloft)))
    :effect (and (not (holding ?b))
                 (not (hands-busy)))))
