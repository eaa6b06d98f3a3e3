(define (domain ambulance-triage)
  (:requirements :strips :typing)
  (:types ambulance patient location hospital severity)
  (:predicates
    (ambulance-at ?a - ambulance ?l - location)
    (road ?from - location ?to - location)
    (patient-at ?p - patient ?l - location)
    (has-severity ?p - patient ?s - severity)
    (rated-for ?a - ambulance ?s - severity)
    (has-kit ?a - ambulance)
    (stabilized ?p - patient)
    (ambulance-empty ?a - ambulance)
    (carrying ?a - ambulance ?p - patient)
    (hospital-at ?h - hospital ?l - location)
    (treats ?h - hospital ?s - severity)
    (admitted ?p - patient ?h - hospital))

  (:action drive
    :parameters (?a - ambulance ?from - location ?to - location)
    :precondition (and (ambulance-at ?a ?from) (road ?from ?to))
    :effect (and (ambulance-at ?a ?to)
                 (not (ambulance-at ?a ?from))))

  (:action stabilize
    :parameters (?a - ambulance ?p - patient ?l - location)
    :precondition (and (ambulance-at ?a ?l) (patient-at ?p ?l) (has-kit ?a))
    :effect (and (stabilized ?p)
                 (not (has-kit ?a))))

  (:action load-patient
    :parameters (?a - ambulance ?p - patient ?l - location ?s - severity)
    :precondition (and (ambulance-at ?a ?l) (patient-at ?p ?l) (stabilized ?p)
                       (ambulance-empty ?a) (has-severity ?p ?s) (rated-for ?a ?s))
    :effect (and (carrying ?a ?p)
                 (not (patient-at ?p ?l))
                 (not (ambulance-empty ?a))))

  (:action admit
    :parameters (?a - ambulance ?p - patient ?h - hospital ?l - location ?s - severity)
    :precondition (and (ambulance-at ?a ?l) (hospital-at ?h ?l) (carrying ?a ?p)
                       (has-severity ?p ?s) (treats ?h ?s))
    :effect (and (admitted ?p ?h)
                 (ambulance-empty ?a)
                 (not (carrying ?a ?p))))

  (:action restock
    :parameters (?a - ambulance ?h - hospital ?l - location)
    :precondition (and (ambulance-at ?a ?l) (hospital-at ?h ?l))
    :effect (has-kit ?a)))
