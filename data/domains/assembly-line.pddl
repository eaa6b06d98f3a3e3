(define (domain assembly-line)
  (:requirements :strips :typing)
  (:types product station component crate count)
  (:predicates
    (waiting ?p - product)
    (at-station ?p - product ?s - station)
    (station-free ?s - station)
    (line-start ?s - station)
    (line-end ?s - station)
    (next-station ?s1 - station ?s2 - station)
    (fits ?s - station ?c - component)
    (needs ?p - product ?c - component)
    (installed ?p - product ?c - component)
    (stock ?s - station ?n - count)
    (one-more ?n1 - count ?n2 - count)
    (crate-of ?k - crate ?c - component)
    (crate-full ?k - crate)
    (shipped ?p - product))

  (:action load-product
    :parameters (?p - product ?s - station)
    :precondition (and (waiting ?p) (line-start ?s) (station-free ?s))
    :effect (and (at-station ?p ?s)
                 (not (waiting ?p))
                 (not (station-free ?s))))

  (:action advance
    :parameters (?p - product ?from - station ?to - station)
    :precondition (and (at-station ?p ?from) (next-station ?from ?to) (station-free ?to))
    :effect (and (at-station ?p ?to)
                 (station-free ?from)
                 (not (at-station ?p ?from))
                 (not (station-free ?to))))

  (:action install
    :parameters (?p - product ?s - station ?c - component ?n1 - count ?n0 - count)
    :precondition (and (at-station ?p ?s) (fits ?s ?c) (needs ?p ?c)
                       (stock ?s ?n1) (one-more ?n0 ?n1))
    :effect (and (installed ?p ?c)
                 (not (needs ?p ?c))
                 (stock ?s ?n0)
                 (not (stock ?s ?n1))))

  (:action restock
    :parameters (?s - station ?k - crate ?c - component ?n0 - count ?n1 - count)
    :precondition (and (crate-full ?k) (crate-of ?k ?c) (fits ?s ?c)
                       (stock ?s ?n0) (one-more ?n0 ?n1))
    :effect (and (stock ?s ?n1)
                 (not (stock ?s ?n0))
                 (not (crate-full ?k))))

  (:action ship
    :parameters (?p - product ?s - station)
    :precondition (and (at-station ?p ?s) (line-end ?s))
    :effect (and (shipped ?p)
                 (station-free ?s)
                 (not (at-station ?p ?s)))))
