(define (domain satellite-imaging)
  (:requirements :strips :typing :negative-preconditions)
  (:types spacecraft sensor zone site station band amount)
  (:predicates
    (craft-over ?c - spacecraft ?z - zone)
    (track-next ?z - zone ?ahead - zone)
    (overlooks ?z - zone ?t - site)
    (in-contact ?z - zone ?g - station)
    (sunlit ?z - zone)
    (mounted ?x - sensor ?c - spacecraft)
    (captures-in ?x - sensor ?b - band)
    (sensor-warm ?x - sensor)
    (battery ?c - spacecraft ?e - amount)
    (free-space ?c - spacecraft ?s - amount)
    (one-more ?lower - amount ?higher - amount)
    (recorded ?c - spacecraft ?t - site ?b - band)
    (received ?t - site ?b - band))

  (:action coast
    :parameters (?c - spacecraft ?z - zone ?ahead - zone)
    :precondition (and (craft-over ?c ?z) (track-next ?z ?ahead))
    :effect (and (craft-over ?c ?ahead)
                 (not (craft-over ?c ?z))))

  (:action soak-sun
    :parameters (?c - spacecraft ?z - zone ?low - amount ?high - amount)
    :precondition (and (craft-over ?c ?z) (sunlit ?z) (battery ?c ?low) (one-more ?low ?high))
    :effect (and (battery ?c ?high)
                 (not (battery ?c ?low))))

  (:action warm-up
    :parameters (?c - spacecraft ?x - sensor ?high - amount ?low - amount)
    :precondition (and (mounted ?x ?c) (not (sensor-warm ?x))
                       (battery ?c ?high) (one-more ?low ?high))
    :effect (and (sensor-warm ?x)
                 (battery ?c ?low)
                 (not (battery ?c ?high))))

  (:action cool-down
    :parameters (?c - spacecraft ?x - sensor)
    :precondition (and (mounted ?x ?c) (sensor-warm ?x))
    :effect (not (sensor-warm ?x)))

  (:action capture
    :parameters (?c - spacecraft ?x - sensor ?z - zone ?t - site ?b - band ?high - amount ?low - amount)
    :precondition (and (mounted ?x ?c) (sensor-warm ?x) (captures-in ?x ?b)
                       (craft-over ?c ?z) (overlooks ?z ?t)
                       (not (recorded ?c ?t ?b))
                       (free-space ?c ?high) (one-more ?low ?high))
    :effect (and (recorded ?c ?t ?b)
                 (free-space ?c ?low)
                 (not (free-space ?c ?high))))

  (:action transmit
    :parameters (?c - spacecraft ?z - zone ?g - station ?t - site ?b - band ?slow - amount ?shigh - amount ?ehigh - amount ?elow - amount)
    :precondition (and (craft-over ?c ?z) (in-contact ?z ?g) (recorded ?c ?t ?b)
                       (free-space ?c ?slow) (one-more ?slow ?shigh)
                       (battery ?c ?ehigh) (one-more ?elow ?ehigh))
    :effect (and (received ?t ?b)
                 (free-space ?c ?shigh)
                 (battery ?c ?elow)
                 (not (recorded ?c ?t ?b))
                 (not (free-space ?c ?slow))
                 (not (battery ?c ?ehigh)))))
