(define (domain cell-culture)
  (:requirements :strips :typing)
  (:types cell-line vial flask incubator medium confluence)
  (:predicates
    (vial-of ?v - vial ?c - cell-line)
    (vial-frozen ?v - vial)
    (flask-sterile ?f - flask)
    (culture-of ?f - flask ?c - cell-line)
    (conf ?f - flask ?l - confluence)
    (grows ?l1 - confluence ?l2 - confluence)
    (seeding-level ?l - confluence)
    (split-ready ?l - confluence)
    (fed ?f - flask)
    (medium-fresh ?m - medium)
    (on-bench ?f - flask)
    (in-incubator ?f - flask ?i - incubator)
    (incubator-free ?i - incubator)
    (harvested ?f - flask))

  (:action thaw-and-seed
    :parameters (?v - vial ?c - cell-line ?f - flask ?l - confluence)
    :precondition (and (vial-frozen ?v) (vial-of ?v ?c) (flask-sterile ?f)
                       (on-bench ?f) (seeding-level ?l))
    :effect (and (culture-of ?f ?c)
                 (conf ?f ?l)
                 (not (flask-sterile ?f))
                 (not (vial-frozen ?v))))

  (:action feed
    :parameters (?f - flask ?c - cell-line ?m - medium)
    :precondition (and (culture-of ?f ?c) (on-bench ?f) (medium-fresh ?m))
    :effect (and (fed ?f)
                 (not (medium-fresh ?m))))

  (:action place-in-incubator
    :parameters (?f - flask ?i - incubator)
    :precondition (and (on-bench ?f) (incubator-free ?i))
    :effect (and (in-incubator ?f ?i)
                 (not (on-bench ?f))
                 (not (incubator-free ?i))))

  (:action take-out
    :parameters (?f - flask ?i - incubator)
    :precondition (in-incubator ?f ?i)
    :effect (and (on-bench ?f)
                 (incubator-free ?i)
                 (not (in-incubator ?f ?i))))

  (:action incubate
    :parameters (?f - flask ?i - incubator ?l1 - confluence ?l2 - confluence)
    :precondition (and (in-incubator ?f ?i) (fed ?f) (conf ?f ?l1) (grows ?l1 ?l2))
    :effect (and (conf ?f ?l2)
                 (not (conf ?f ?l1))
                 (not (fed ?f))))

  (:action split
    :parameters (?f - flask ?g - flask ?c - cell-line ?hi - confluence ?lo - confluence)
    :precondition (and (on-bench ?f) (culture-of ?f ?c) (conf ?f ?hi) (split-ready ?hi)
                       (seeding-level ?lo) (flask-sterile ?g) (on-bench ?g))
    :effect (and (conf ?f ?lo)
                 (conf ?g ?lo)
                 (culture-of ?g ?c)
                 (not (conf ?f ?hi))
                 (not (flask-sterile ?g))))

  (:action harvest
    :parameters (?f - flask ?c - cell-line ?l - confluence)
    :precondition (and (on-bench ?f) (culture-of ?f ?c) (conf ?f ?l) (split-ready ?l))
    :effect (and (harvested ?f)
                 (not (conf ?f ?l)))))
