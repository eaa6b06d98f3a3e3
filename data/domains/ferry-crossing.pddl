(define (domain ferry-crossing)
  (:requirements :strips)
  (:constants west-bank east-bank)
  (:predicates
    (ferry-at ?f ?b)
    (car-at ?c ?b)
    (aboard ?c ?f)
    (deck-empty ?f)
    (ramp-down ?f)
    (ramp-up ?f)
    (route ?from ?to))

  (:action lower-ramp
    :parameters (?f ?b)
    :precondition (and (ferry-at ?f ?b) (ramp-up ?f))
    :effect (and (ramp-down ?f)
                 (not (ramp-up ?f))))

  (:action raise-ramp
    :parameters (?f ?b)
    :precondition (and (ferry-at ?f ?b) (ramp-down ?f))
    :effect (and (ramp-up ?f)
                 (not (ramp-down ?f))))

  (:action sail
    :parameters (?f ?from ?to)
    :precondition (and (ferry-at ?f ?from) (route ?from ?to) (ramp-up ?f))
    :effect (and (ferry-at ?f ?to)
                 (not (ferry-at ?f ?from))))

  (:action drive-on
    :parameters (?c ?f ?b)
    :precondition (and (car-at ?c ?b) (ferry-at ?f ?b) (ramp-down ?f) (deck-empty ?f))
    :effect (and (aboard ?c ?f)
                 (not (car-at ?c ?b))
                 (not (deck-empty ?f))))

  (:action drive-off
    :parameters (?c ?f ?b)
    :precondition (and (aboard ?c ?f) (ferry-at ?f ?b) (ramp-down ?f))
    :effect (and (car-at ?c ?b)
                 (deck-empty ?f)
                 (not (aboard ?c ?f)))))
