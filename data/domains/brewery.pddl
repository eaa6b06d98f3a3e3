(define (domain brewery)
  (:requirements :strips :typing)
  (:types mash-tun kettle fermenter - vessel
          batch vessel hop-bag hop-variety yeast)
  (:predicates
    (unstarted ?b - batch)
    (in-vessel ?b - batch ?v - vessel)
    (vessel-empty ?v - vessel)
    (vessel-clean ?v - vessel)
    (mashed ?b - batch)
    (boiled ?b - batch)
    (fermented ?b - batch)
    (bottled ?b - batch)
    (bag-of ?g - hop-bag ?h - hop-variety)
    (bag-in-store ?g - hop-bag)
    (recipe-hops ?b - batch ?h - hop-variety)
    (recipe-yeast ?b - batch ?y - yeast)
    (yeast-available ?y - yeast)
    (yeast-cake ?f - fermenter ?y - yeast))

  (:action mash-in
    :parameters (?b - batch ?t - mash-tun)
    :precondition (and (unstarted ?b) (vessel-empty ?t) (vessel-clean ?t))
    :effect (and (in-vessel ?b ?t)
                 (mashed ?b)
                 (not (unstarted ?b))
                 (not (vessel-empty ?t))
                 (not (vessel-clean ?t))))

  (:action lauter
    :parameters (?b - batch ?t - mash-tun ?k - kettle)
    :precondition (and (in-vessel ?b ?t) (mashed ?b) (vessel-empty ?k) (vessel-clean ?k))
    :effect (and (in-vessel ?b ?k)
                 (vessel-empty ?t)
                 (not (in-vessel ?b ?t))
                 (not (vessel-empty ?k))
                 (not (vessel-clean ?k))))

  (:action boil
    :parameters (?b - batch ?k - kettle ?g - hop-bag ?h - hop-variety)
    :precondition (and (in-vessel ?b ?k) (mashed ?b) (recipe-hops ?b ?h)
                       (bag-of ?g ?h) (bag-in-store ?g))
    :effect (and (boiled ?b)
                 (not (mashed ?b))
                 (not (bag-in-store ?g))))

  (:action transfer-to-fermenter
    :parameters (?b - batch ?k - kettle ?f - fermenter)
    :precondition (and (in-vessel ?b ?k) (boiled ?b) (vessel-empty ?f) (vessel-clean ?f))
    :effect (and (in-vessel ?b ?f)
                 (vessel-empty ?k)
                 (not (in-vessel ?b ?k))
                 (not (vessel-empty ?f))
                 (not (vessel-clean ?f))))

  (:action pitch-yeast
    :parameters (?b - batch ?f - fermenter ?y - yeast)
    :precondition (and (in-vessel ?b ?f) (boiled ?b) (recipe-yeast ?b ?y) (yeast-available ?y))
    :effect (and (fermented ?b)
                 (yeast-cake ?f ?y)
                 (not (boiled ?b))
                 (not (yeast-available ?y))))

  (:action harvest-yeast
    :parameters (?b - batch ?f - fermenter ?y - yeast)
    :precondition (and (in-vessel ?b ?f) (fermented ?b) (yeast-cake ?f ?y))
    :effect (and (yeast-available ?y)
                 (not (yeast-cake ?f ?y))))

  (:action bottle
    :parameters (?b - batch ?f - fermenter)
    :precondition (and (in-vessel ?b ?f) (fermented ?b))
    :effect (and (bottled ?b)
                 (vessel-empty ?f)
                 (not (in-vessel ?b ?f))))

  (:action clean-vessel
    :parameters (?v - vessel)
    :precondition (vessel-empty ?v)
    :effect (vessel-clean ?v)))
