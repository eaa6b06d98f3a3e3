(define (domain pcr-lab)
  (:requirements :strips :typing :negative-preconditions)
  (:types sample tube mix-aliquot thermocycler gel lane)
  (:predicates
    (raw ?s - sample)
    (tube-used ?t - tube)
    (dna-of ?t - tube ?s - sample)
    (thawed ?m - mix-aliquot)
    (aliquot-used ?m - mix-aliquot)
    (has-mix ?t - tube)
    (in-cycler ?t - tube ?c - thermocycler)
    (lid-closed ?c - thermocycler)
    (amplified ?t - tube)
    (lane-of ?l - lane ?g - gel)
    (lane-loaded ?l - lane ?s - sample)
    (lane-used ?l - lane)
    (gel-run ?g - gel)
    (analysed ?s - sample))

  (:action extract-dna
    :parameters (?s - sample ?t - tube)
    :precondition (and (raw ?s) (not (tube-used ?t)))
    :effect (and (dna-of ?t ?s)
                 (tube-used ?t)
                 (not (raw ?s))))

  (:action thaw-mix
    :parameters (?m - mix-aliquot)
    :precondition (and (not (thawed ?m)) (not (aliquot-used ?m)))
    :effect (thawed ?m))

  (:action add-master-mix
    :parameters (?t - tube ?s - sample ?m - mix-aliquot)
    :precondition (and (dna-of ?t ?s) (thawed ?m) (not (aliquot-used ?m))
                       (not (has-mix ?t)))
    :effect (and (has-mix ?t)
                 (aliquot-used ?m)
                 (not (thawed ?m))))

  (:action load-cycler
    :parameters (?t - tube ?c - thermocycler)
    :precondition (and (has-mix ?t) (not (lid-closed ?c)) (not (amplified ?t)))
    :effect (in-cycler ?t ?c))

  (:action close-lid
    :parameters (?c - thermocycler)
    :precondition (not (lid-closed ?c))
    :effect (lid-closed ?c))

  (:action run-program
    :parameters (?c - thermocycler ?t - tube)
    :precondition (and (lid-closed ?c) (in-cycler ?t ?c) (not (amplified ?t)))
    :effect (amplified ?t))

  (:action open-lid
    :parameters (?c - thermocycler)
    :precondition (lid-closed ?c)
    :effect (not (lid-closed ?c)))

  (:action unload-cycler
    :parameters (?t - tube ?c - thermocycler)
    :precondition (and (in-cycler ?t ?c) (not (lid-closed ?c)))
    :effect (not (in-cycler ?t ?c)))

  (:action load-lane
    :parameters (?t - tube ?s - sample ?l - lane ?g - gel)
    :precondition (and (dna-of ?t ?s) (amplified ?t) (lane-of ?l ?g)
                       (not (lane-used ?l)) (not (gel-run ?g)))
    :effect (and (lane-loaded ?l ?s)
                 (lane-used ?l)))

  (:action run-gel
    :parameters (?g - gel)
    :precondition (not (gel-run ?g))
    :effect (gel-run ?g))

  (:action image-lane
    :parameters (?l - lane ?g - gel ?s - sample)
    :precondition (and (lane-of ?l ?g) (gel-run ?g) (lane-loaded ?l ?s))
    :effect (analysed ?s)))
