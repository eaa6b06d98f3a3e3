(define (domain paint-mixing)
  (:requirements :strips :typing :disjunctive-preconditions)
  (:types colour tin vat can)
  (:predicates
    (tin-colour ?t - tin ?c - colour)
    (tin-full ?t - tin)
    (base-paint ?c - colour)
    (mixes ?c1 - colour ?c2 - colour ?result - colour)
    (vat-clean ?v - vat)
    (vat-dirty ?v - vat)
    (vat-primed ?v - vat)
    (vat-holds ?v - vat ?c - colour)
    (vat-single ?v - vat)
    (vat-streaky ?v - vat)
    (vat-stirred ?v - vat)
    (can-empty ?k - can)
    (can-holds ?k - can ?c - colour))

  (:action prime-vat
    :parameters (?v - vat)
    :precondition (vat-clean ?v)
    :effect (vat-primed ?v))

  (:action pour-first
    :parameters (?t - tin ?v - vat ?c - colour)
    :precondition (and (tin-full ?t) (tin-colour ?t ?c) (vat-clean ?v)
                       (or (base-paint ?c) (vat-primed ?v)))
    :effect (and (vat-holds ?v ?c)
                 (vat-single ?v)
                 (not (vat-clean ?v))
                 (not (vat-primed ?v))
                 (not (tin-full ?t))))

  (:action pour-second
    :parameters (?t - tin ?v - vat ?c1 - colour ?c2 - colour ?result - colour)
    :precondition (and (tin-full ?t) (tin-colour ?t ?c2) (vat-holds ?v ?c1)
                       (vat-single ?v) (mixes ?c1 ?c2 ?result))
    :effect (and (vat-holds ?v ?result)
                 (vat-streaky ?v)
                 (not (vat-holds ?v ?c1))
                 (not (vat-single ?v))
                 (not (tin-full ?t))))

  (:action stir
    :parameters (?v - vat)
    :precondition (vat-streaky ?v)
    :effect (and (vat-stirred ?v)
                 (not (vat-streaky ?v))))

  (:action fill-can
    :parameters (?v - vat ?k - can ?c - colour)
    :precondition (and (vat-holds ?v ?c) (can-empty ?k)
                       (or (vat-single ?v) (vat-stirred ?v)))
    :effect (and (can-holds ?k ?c)
                 (vat-dirty ?v)
                 (not (can-empty ?k))
                 (not (vat-holds ?v ?c))
                 (not (vat-single ?v))
                 (not (vat-stirred ?v))))

  (:action clean-vat
    :parameters (?v - vat)
    :precondition (vat-dirty ?v)
    :effect (and (vat-clean ?v)
                 (not (vat-dirty ?v)))))
