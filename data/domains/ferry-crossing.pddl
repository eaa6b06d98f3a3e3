(define (domain ferry-crossing)
  (:requirements :strips :typing)
  (:types ferry car bank)
  (:predicates
    (ferry-at ?f - ferry ?b - bank)
    (car-at ?c - car ?b - bank)
    (aboard ?c - car ?f - ferry)
    (deck-empty ?f - ferry)
    (ramp-down ?f - ferry)
    (ramp-up ?f - ferry)
    (route ?from - bank ?to - bank))

  (:action lower-ramp
    :parameters (?f - ferry ?b - bank)
    :precondition (and (ferry-at ?f ?b) (ramp-up ?f))
    :effect (and (ramp-down ?f)
                 (not (ramp-up ?f))))

  (:action raise-ramp
    :parameters (?f - ferry ?b - bank)
    :precondition (and (ferry-at ?f ?b) (ramp-down ?f))
    :effect (and (ramp-up ?f)
                 (not (ramp-down ?f))))

  (:action sail
    :parameters (?f - ferry ?from - bank ?to - bank)
    :precondition (and (ferry-at ?f ?from) (route ?from ?to) (ramp-up ?f))
    :effect (and (ferry-at ?f ?to)
                 (not (ferry-at ?f ?from))))

  (:action drive-on
    :parameters (?c - car ?f - ferry ?b - bank)
    :precondition (and (car-at ?c ?b) (ferry-at ?f ?b) (ramp-down ?f) (deck-empty ?f))
    :effect (and (aboard ?c ?f)
                 (not (car-at ?c ?b))
                 (not (deck-empty ?f))))

  (:action drive-off
    :parameters (?c - car ?f - ferry ?b - bank)
    :precondition (and (aboard ?c ?f) (ferry-at ?f ?b) (ramp-down ?f))
    :effect (and (car-at ?c ?b)
                 (deck-empty ?f)
                 (not (aboard ?c ?f)))))
