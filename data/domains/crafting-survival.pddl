(define (domain crafting-survival)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types place resource tool level)
  (:predicates
    (at ?p - place)
    (path ?from - place ?to - place)
    (yields ?p - place ?r - resource)
    (by-hand ?r - resource)
    (needs-tool ?r - resource ?t - tool)
    (stock ?r - resource ?n - level)
    (succ ?n - level ?m - level)
    (has ?t - tool)
    (recipe ?t - tool ?a - resource ?b - resource)
    (workbench ?p - place)
    (campsite ?p - place)
    (wall-material ?r - resource)
    (roof-material ?r - resource)
    (wall-height ?h - level)
    (full-height ?h - level)
    (sheltered))

  (:action walk
    :parameters (?from - place ?to - place)
    :precondition (and (at ?from) (path ?from ?to))
    :effect (and (at ?to)
                 (not (at ?from))))

  (:action gather-by-hand
    :parameters (?r - resource ?p - place ?n - level ?m - level)
    :precondition (and (at ?p) (yields ?p ?r) (by-hand ?r) (stock ?r ?n) (succ ?n ?m))
    :effect (and (stock ?r ?m)
                 (not (stock ?r ?n))))

  (:action gather-with-tool
    :parameters (?r - resource ?t - tool ?p - place ?n - level ?m - level)
    :precondition (and (at ?p) (yields ?p ?r) (needs-tool ?r ?t) (has ?t)
                       (stock ?r ?n) (succ ?n ?m))
    :effect (and (stock ?r ?m)
                 (not (stock ?r ?n))))

  (:action craft
    :parameters (?t - tool ?p - place ?a - resource ?b - resource
                 ?a-had - level ?a-left - level ?b-had - level ?b-left - level)
    :precondition (and (at ?p) (workbench ?p) (recipe ?t ?a ?b) (not (= ?a ?b))
                       (not (has ?t))
                       (stock ?a ?a-had) (succ ?a-left ?a-had)
                       (stock ?b ?b-had) (succ ?b-left ?b-had))
    :effect (and (has ?t)
                 (stock ?a ?a-left)
                 (stock ?b ?b-left)
                 (not (stock ?a ?a-had))
                 (not (stock ?b ?b-had))))

  (:action raise-wall
    :parameters (?p - place ?r - resource ?n - level ?lower - level ?h - level ?higher - level)
    :precondition (and (at ?p) (campsite ?p) (wall-material ?r)
                       (stock ?r ?n) (succ ?lower ?n)
                       (wall-height ?h) (succ ?h ?higher) (not (full-height ?h)))
    :effect (and (stock ?r ?lower)
                 (wall-height ?higher)
                 (not (stock ?r ?n))
                 (not (wall-height ?h))))

  (:action put-on-roof
    :parameters (?p - place ?r - resource ?n - level ?lower - level ?h - level)
    :precondition (and (at ?p) (campsite ?p) (roof-material ?r)
                       (stock ?r ?n) (succ ?lower ?n)
                       (wall-height ?h) (full-height ?h) (not (sheltered)))
    :effect (and (sheltered)
                 (stock ?r ?lower)
                 (not (stock ?r ?n)))))
