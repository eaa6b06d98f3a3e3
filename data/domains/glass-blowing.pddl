(define (domain glass-blowing)
  (:requirements :strips :typing)
  (:types piece blowpipe heat glass-amount cullet lehr)
  (:predicates
    (unstarted ?x - piece)
    (pipe-free ?p - blowpipe)
    (on-pipe ?x - piece ?p - blowpipe)
    (glass-heat ?x - piece ?h - heat)
    (cooler ?h1 - heat ?h2 - heat)
    (hottest ?h - heat)
    (below-hottest ?h - heat)
    (workable ?h - heat)
    (gathered ?x - piece)
    (marvered ?x - piece)
    (blown ?x - piece)
    (shaped ?x - piece)
    (furnace-glass ?g - glass-amount)
    (less-glass ?g1 - glass-amount ?g2 - glass-amount)
    (cullet-unused ?c - cullet)
    (in-lehr ?x - piece ?l - lehr)
    (lehr-free ?l - lehr)
    (annealed ?x - piece))

  (:action melt-cullet
    :parameters (?c - cullet ?g0 - glass-amount ?g1 - glass-amount)
    :precondition (and (cullet-unused ?c) (furnace-glass ?g0) (less-glass ?g0 ?g1))
    :effect (and (furnace-glass ?g1)
                 (not (furnace-glass ?g0))
                 (not (cullet-unused ?c))))

  (:action gather
    :parameters (?x - piece ?p - blowpipe ?h - heat ?g1 - glass-amount ?g0 - glass-amount)
    :precondition (and (unstarted ?x) (pipe-free ?p) (hottest ?h)
                       (furnace-glass ?g1) (less-glass ?g0 ?g1))
    :effect (and (on-pipe ?x ?p)
                 (glass-heat ?x ?h)
                 (gathered ?x)
                 (furnace-glass ?g0)
                 (not (furnace-glass ?g1))
                 (not (unstarted ?x))
                 (not (pipe-free ?p))))

  (:action reheat
    :parameters (?x - piece ?p - blowpipe ?old - heat ?hot - heat)
    :precondition (and (on-pipe ?x ?p) (glass-heat ?x ?old) (below-hottest ?old) (hottest ?hot))
    :effect (and (glass-heat ?x ?hot)
                 (not (glass-heat ?x ?old))))

  (:action marver
    :parameters (?x - piece ?p - blowpipe ?h1 - heat ?h2 - heat)
    :precondition (and (on-pipe ?x ?p) (gathered ?x) (glass-heat ?x ?h1)
                       (workable ?h1) (cooler ?h1 ?h2))
    :effect (and (marvered ?x)
                 (glass-heat ?x ?h2)
                 (not (gathered ?x))
                 (not (glass-heat ?x ?h1))))

  (:action blow
    :parameters (?x - piece ?p - blowpipe ?h1 - heat ?h2 - heat)
    :precondition (and (on-pipe ?x ?p) (marvered ?x) (glass-heat ?x ?h1)
                       (workable ?h1) (cooler ?h1 ?h2))
    :effect (and (blown ?x)
                 (glass-heat ?x ?h2)
                 (not (marvered ?x))
                 (not (glass-heat ?x ?h1))))

  (:action shape
    :parameters (?x - piece ?p - blowpipe ?h1 - heat ?h2 - heat)
    :precondition (and (on-pipe ?x ?p) (blown ?x) (glass-heat ?x ?h1)
                       (workable ?h1) (cooler ?h1 ?h2))
    :effect (and (shaped ?x)
                 (glass-heat ?x ?h2)
                 (not (blown ?x))
                 (not (glass-heat ?x ?h1))))

  (:action crack-off
    :parameters (?x - piece ?p - blowpipe ?l - lehr)
    :precondition (and (on-pipe ?x ?p) (shaped ?x) (lehr-free ?l))
    :effect (and (in-lehr ?x ?l)
                 (pipe-free ?p)
                 (not (on-pipe ?x ?p))
                 (not (lehr-free ?l))))

  (:action anneal
    :parameters (?x - piece ?l - lehr)
    :precondition (in-lehr ?x ?l)
    :effect (and (annealed ?x)
                 (lehr-free ?l)
                 (not (in-lehr ?x ?l)))))
