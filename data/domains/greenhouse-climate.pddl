(define (domain greenhouse-climate)
  (:requirements :strips :typing)
  (:types zone heater vent sprinkler barrel crop temperature moisture water-amount)
  (:predicates
    (heater-in ?h - heater ?z - zone)
    (vent-in ?v - vent ?z - zone)
    (sprinkler-in ?s - sprinkler ?z - zone)
    (temp ?z - zone ?t - temperature)
    (warmer ?cool - temperature ?warm - temperature)
    (soil-moisture ?z - zone ?m - moisture)
    (wetter ?dry - moisture ?wet - moisture)
    (grows-in ?c - crop ?z - zone)
    (likes-temp ?c - crop ?t - temperature)
    (likes-moisture ?c - crop ?m - moisture)
    (tank-holds ?w - water-amount)
    (more-water ?less - water-amount ?more - water-amount)
    (barrel-full ?b - barrel)
    (in-range ?z - zone))

  (:action heat-zone
    :parameters (?h - heater ?z - zone ?t1 - temperature ?t2 - temperature)
    :precondition (and (heater-in ?h ?z) (temp ?z ?t1) (warmer ?t1 ?t2))
    :effect (and (temp ?z ?t2)
                 (not (temp ?z ?t1))
                 (not (in-range ?z))))

  (:action vent-zone
    :parameters (?v - vent ?z - zone ?t1 - temperature ?t2 - temperature
                 ?m1 - moisture ?m2 - moisture)
    :precondition (and (vent-in ?v ?z) (temp ?z ?t1) (warmer ?t2 ?t1)
                       (soil-moisture ?z ?m1) (wetter ?m2 ?m1))
    :effect (and (temp ?z ?t2)
                 (not (temp ?z ?t1))
                 (soil-moisture ?z ?m2)
                 (not (soil-moisture ?z ?m1))
                 (not (in-range ?z))))

  (:action sprinkle-zone
    :parameters (?s - sprinkler ?z - zone ?m1 - moisture ?m2 - moisture
                 ?w1 - water-amount ?w2 - water-amount)
    :precondition (and (sprinkler-in ?s ?z) (soil-moisture ?z ?m1) (wetter ?m1 ?m2)
                       (tank-holds ?w1) (more-water ?w2 ?w1))
    :effect (and (soil-moisture ?z ?m2)
                 (not (soil-moisture ?z ?m1))
                 (tank-holds ?w2)
                 (not (tank-holds ?w1))
                 (not (in-range ?z))))

  (:action empty-barrel
    :parameters (?b - barrel ?w1 - water-amount ?w2 - water-amount)
    :precondition (and (barrel-full ?b) (tank-holds ?w1) (more-water ?w1 ?w2))
    :effect (and (tank-holds ?w2)
                 (not (tank-holds ?w1))
                 (not (barrel-full ?b))))

  (:action check-zone
    :parameters (?z - zone ?c - crop ?t - temperature ?m - moisture)
    :precondition (and (grows-in ?c ?z) (temp ?z ?t) (soil-moisture ?z ?m)
                       (likes-temp ?c ?t) (likes-moisture ?c ?m))
    :effect (in-range ?z)))
