(define (domain tour-guide-groups)
  (:requirements :strips :typing :negative-preconditions :existential-preconditions)
  (:types location guide group language - object
          site plaza - location)
  (:predicates
    (path ?a - location ?b - location)
    (group-at ?g - group ?l - location)
    (guide-at ?gd - guide ?l - location)
    (guide-free ?gd - guide)
    (leading ?gd - guide ?g - group)
    (speaks ?gd - guide ?lang - language)
    (group-language ?g - group ?lang - language)
    (licensed ?gd - guide ?s - site)
    (visited ?g - group ?s - site))

  (:action assign-guide
    :parameters (?gd - guide ?g - group ?p - plaza ?lang - language)
    :precondition (and (guide-at ?gd ?p)
                       (group-at ?g ?p)
                       (guide-free ?gd)
                       (speaks ?gd ?lang)
                       (group-language ?g ?lang)
                       (not (exists (?x - guide) (leading ?x ?g))))
    :effect (and (leading ?gd ?g)
                 (not (guide-free ?gd))
                 (not (guide-at ?gd ?p))))

  (:action walk-to-site
    :parameters (?g - group ?gd - guide ?from - location ?to - site)
    :precondition (and (leading ?gd ?g)
                       (group-at ?g ?from)
                       (path ?from ?to)
                       (not (exists (?o - group) (group-at ?o ?to))))
    :effect (and (group-at ?g ?to)
                 (not (group-at ?g ?from))))

  (:action walk-to-plaza
    :parameters (?g - group ?gd - guide ?from - location ?to - plaza)
    :precondition (and (leading ?gd ?g)
                       (group-at ?g ?from)
                       (path ?from ?to))
    :effect (and (group-at ?g ?to)
                 (not (group-at ?g ?from))))

  (:action explain-site
    :parameters (?g - group ?s - site)
    :precondition (and (group-at ?g ?s)
                       (exists (?gd - guide)
                         (and (leading ?gd ?g)
                              (licensed ?gd ?s))))
    :effect (visited ?g ?s))

  (:action dismiss-guide
    :parameters (?gd - guide ?g - group ?p - plaza)
    :precondition (and (leading ?gd ?g)
                       (group-at ?g ?p))
    :effect (and (guide-at ?gd ?p)
                 (guide-free ?gd)
                 (not (leading ?gd ?g)))))
