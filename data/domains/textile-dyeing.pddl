(define (domain textile-dyeing)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types fabric dye-bath colour fixer charge)
  (:predicates
    (raw ?f - fabric)
    (ready-to-dye ?f - fabric)
    (dyed ?f - fabric ?c - colour)
    (colour-unfixed ?f - fabric)
    (colour-fixed ?f - fabric)
    (rinsed ?f - fabric)
    (bath-colour ?b - dye-bath ?c - colour)
    (bath-charge ?b - dye-bath ?n - charge)
    (fewer ?n0 - charge ?n1 - charge)
    (exhausted ?n - charge)
    (full-charge ?n - charge)
    (fixes ?x - fixer ?c - colour))

  (:action scour
    :parameters (?f - fabric)
    :precondition (raw ?f)
    :effect (and (ready-to-dye ?f)
                 (not (raw ?f))))

  (:action dye-one
    :parameters (?f - fabric ?b - dye-bath ?c - colour ?n1 - charge ?n0 - charge)
    :precondition (and (ready-to-dye ?f) (bath-colour ?b ?c)
                       (bath-charge ?b ?n1) (fewer ?n0 ?n1))
    :effect (and (dyed ?f ?c)
                 (colour-unfixed ?f)
                 (bath-charge ?b ?n0)
                 (not (bath-charge ?b ?n1))
                 (not (ready-to-dye ?f))))

  (:action dye-pair
    :parameters (?f1 - fabric ?f2 - fabric ?b - dye-bath ?c - colour ?n1 - charge ?n0 - charge)
    :precondition (and (not (= ?f1 ?f2)) (ready-to-dye ?f1) (ready-to-dye ?f2)
                       (bath-colour ?b ?c) (bath-charge ?b ?n1) (fewer ?n0 ?n1))
    :effect (and (dyed ?f1 ?c)
                 (dyed ?f2 ?c)
                 (colour-unfixed ?f1)
                 (colour-unfixed ?f2)
                 (bath-charge ?b ?n0)
                 (not (bath-charge ?b ?n1))
                 (not (ready-to-dye ?f1))
                 (not (ready-to-dye ?f2))))

  (:action top-up-bath
    :parameters (?b - dye-bath ?n - charge ?full - charge)
    :precondition (and (bath-charge ?b ?n) (exhausted ?n) (full-charge ?full))
    :effect (and (bath-charge ?b ?full)
                 (not (bath-charge ?b ?n))))

  (:action change-bath-colour
    :parameters (?b - dye-bath ?old - colour ?new - colour ?n - charge ?full - charge)
    :precondition (and (bath-colour ?b ?old) (not (= ?old ?new))
                       (bath-charge ?b ?n) (exhausted ?n) (full-charge ?full))
    :effect (and (bath-colour ?b ?new)
                 (bath-charge ?b ?full)
                 (not (bath-colour ?b ?old))
                 (not (bath-charge ?b ?n))))

  (:action fix-colour
    :parameters (?f - fabric ?c - colour ?x - fixer)
    :precondition (and (dyed ?f ?c) (colour-unfixed ?f) (fixes ?x ?c))
    :effect (and (colour-fixed ?f)
                 (not (colour-unfixed ?f))))

  (:action rinse
    :parameters (?f - fabric)
    :precondition (and (colour-fixed ?f) (not (rinsed ?f)))
    :effect (rinsed ?f)))
