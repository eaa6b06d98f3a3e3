(define (domain seed-bank)
  (:requirements :strips :typing :negative-preconditions :disjunctive-preconditions
                 :universal-preconditions)
  (:types sample dryer packet vault moisture)
  (:predicates
    (seed-moisture ?s - sample ?m - moisture)
    (drier ?wet - moisture ?dry - moisture)
    (storable ?m - moisture)
    (on-bench ?s - sample)
    (in-dryer ?s - sample ?d - dryer)
    (dryer-empty ?d - dryer)
    (viable ?s - sample)
    (germination-passed ?s - sample)
    (packet-empty ?p - packet)
    (packet-holds ?p - packet ?s - sample)
    (sealed ?p - packet)
    (in-vault ?p - packet ?v - vault)
    (vault-open ?v - vault)
    (vault-frozen ?v - vault))

  (:action load-dryer
    :parameters (?s - sample ?d - dryer)
    :precondition (and (on-bench ?s) (dryer-empty ?d))
    :effect (and (in-dryer ?s ?d)
                 (not (on-bench ?s))
                 (not (dryer-empty ?d))))

  (:action dry-sample
    :parameters (?s - sample ?d - dryer ?m1 - moisture ?m2 - moisture)
    :precondition (and (in-dryer ?s ?d) (seed-moisture ?s ?m1) (drier ?m1 ?m2))
    :effect (and (seed-moisture ?s ?m2)
                 (not (seed-moisture ?s ?m1))))

  (:action unload-dryer
    :parameters (?s - sample ?d - dryer)
    :precondition (in-dryer ?s ?d)
    :effect (and (on-bench ?s)
                 (dryer-empty ?d)
                 (not (in-dryer ?s ?d))))

  (:action test-germination
    :parameters (?s - sample ?m - moisture)
    :precondition (and (on-bench ?s) (viable ?s) (seed-moisture ?s ?m) (storable ?m))
    :effect (germination-passed ?s))

  (:action fill-packet
    :parameters (?s - sample ?p - packet)
    :precondition (and (on-bench ?s) (germination-passed ?s) (packet-empty ?p))
    :effect (and (packet-holds ?p ?s)
                 (not (packet-empty ?p))
                 (not (on-bench ?s))))

  (:action seal-packet
    :parameters (?p - packet)
    :precondition (and (not (packet-empty ?p)) (not (sealed ?p)))
    :effect (sealed ?p))

  (:action open-vault
    :parameters (?v - vault)
    :precondition (not (vault-open ?v))
    :effect (and (vault-open ?v)
                 (not (vault-frozen ?v))))

  (:action store-packet
    :parameters (?p - packet ?v - vault)
    :precondition (and (vault-open ?v) (not (packet-empty ?p))
                       (forall (?w - vault) (not (in-vault ?p ?w))))
    :effect (in-vault ?p ?v))

  (:action close-and-freeze
    :parameters (?v - vault)
    :precondition (and (vault-open ?v)
                       (forall (?p - packet)
                         (or (not (in-vault ?p ?v)) (sealed ?p))))
    :effect (and (vault-frozen ?v)
                 (not (vault-open ?v)))))
