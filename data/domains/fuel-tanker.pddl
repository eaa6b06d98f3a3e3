(define (domain fuel-tanker)
  (:requirements :strips :typing :action-costs)
  (:types tanker compartment place grade)
  (:predicates
    (tanker-at ?t - tanker ?p - place)
    (highway ?from - place ?to - place)
    (local-road ?from - place ?to - place)
    (refinery ?p - place ?g - grade)
    (compartment-of ?c - compartment ?t - tanker)
    (compartment-empty ?c - compartment)
    (holds ?c - compartment ?g - grade)
    (demand ?p - place ?g - grade)
    (supplied ?p - place ?g - grade))
  (:functions (total-cost) - number)

  (:action drive-highway
    :parameters (?t - tanker ?from - place ?to - place)
    :precondition (and (tanker-at ?t ?from) (highway ?from ?to))
    :effect (and (tanker-at ?t ?to)
                 (not (tanker-at ?t ?from))
                 (increase (total-cost) 2)))

  (:action drive-local
    :parameters (?t - tanker ?from - place ?to - place)
    :precondition (and (tanker-at ?t ?from) (local-road ?from ?to))
    :effect (and (tanker-at ?t ?to)
                 (not (tanker-at ?t ?from))
                 (increase (total-cost) 5)))

  (:action fill
    :parameters (?t - tanker ?c - compartment ?g - grade ?p - place)
    :precondition (and (tanker-at ?t ?p) (refinery ?p ?g) (compartment-of ?c ?t)
                       (compartment-empty ?c))
    :effect (and (holds ?c ?g)
                 (not (compartment-empty ?c))
                 (increase (total-cost) 1)))

  (:action discharge
    :parameters (?t - tanker ?c - compartment ?g - grade ?p - place)
    :precondition (and (tanker-at ?t ?p) (compartment-of ?c ?t) (holds ?c ?g)
                       (demand ?p ?g))
    :effect (and (supplied ?p ?g)
                 (compartment-empty ?c)
                 (not (holds ?c ?g))
                 (not (demand ?p ?g))
                 (increase (total-cost) 1))))
