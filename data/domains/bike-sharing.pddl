(define (domain bike-sharing)
  (:requirements :strips :typing :equality)
  (:types rider bike station slot van)
  (:predicates
    (rider-at ?r - rider ?s - station)
    (on-foot ?r - rider)
    (riding ?r - rider ?b - bike)
    (walkway ?from - station ?to - station)
    (slot-at ?sl - slot ?s - station)
    (bike-in ?b - bike ?sl - slot)
    (slot-free ?sl - slot)
    (van-at ?v - van ?s - station)
    (on-van ?b - bike ?v - van))

  (:action take-bike
    :parameters (?r - rider ?b - bike ?sl - slot ?s - station)
    :precondition (and (rider-at ?r ?s) (on-foot ?r) (slot-at ?sl ?s) (bike-in ?b ?sl))
    :effect (and (riding ?r ?b)
                 (slot-free ?sl)
                 (not (bike-in ?b ?sl))
                 (not (on-foot ?r))))

  (:action return-bike
    :parameters (?r - rider ?b - bike ?sl - slot ?s - station)
    :precondition (and (rider-at ?r ?s) (riding ?r ?b) (slot-at ?sl ?s) (slot-free ?sl))
    :effect (and (bike-in ?b ?sl)
                 (on-foot ?r)
                 (not (riding ?r ?b))
                 (not (slot-free ?sl))))

  (:action ride
    :parameters (?r - rider ?b - bike ?from - station ?to - station)
    :precondition (and (rider-at ?r ?from) (riding ?r ?b) (not (= ?from ?to)))
    :effect (and (rider-at ?r ?to)
                 (not (rider-at ?r ?from))))

  (:action walk
    :parameters (?r - rider ?from - station ?to - station)
    :precondition (and (rider-at ?r ?from) (on-foot ?r) (walkway ?from ?to))
    :effect (and (rider-at ?r ?to)
                 (not (rider-at ?r ?from))))

  (:action drive-van
    :parameters (?v - van ?from - station ?to - station)
    :precondition (and (van-at ?v ?from) (not (= ?from ?to)))
    :effect (and (van-at ?v ?to)
                 (not (van-at ?v ?from))))

  (:action load-van
    :parameters (?v - van ?b - bike ?sl - slot ?s - station)
    :precondition (and (van-at ?v ?s) (slot-at ?sl ?s) (bike-in ?b ?sl))
    :effect (and (on-van ?b ?v)
                 (slot-free ?sl)
                 (not (bike-in ?b ?sl))))

  (:action unload-van
    :parameters (?v - van ?b - bike ?sl - slot ?s - station)
    :precondition (and (van-at ?v ?s) (on-van ?b ?v) (slot-at ?sl ?s) (slot-free ?sl))
    :effect (and (bike-in ?b ?sl)
                 (not (on-van ?b ?v))
                 (not (slot-free ?sl)))))
