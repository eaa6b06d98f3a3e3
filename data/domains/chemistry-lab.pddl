(define (domain chemistry-lab)
  (:requirements :strips :typing)
  (:types substance flask burner)
  (:predicates
    (stocked ?s - substance)
    (reaction ?first - substance ?second - substance ?product - substance)
    (flask-clean ?f - flask)
    (flask-dirty ?f - flask)
    (contains ?f - flask ?s - substance)
    (unreacted-mixture ?f - flask ?product - substance)
    (on-bench ?f - flask)
    (on-burner ?f - flask ?b - burner)
    (burner-free ?b - burner)
    (burner-lit ?b - burner))

  (:action measure
    :parameters (?s - substance ?f - flask)
    :precondition (and (stocked ?s) (flask-clean ?f) (on-bench ?f))
    :effect (and (contains ?f ?s)
                 (not (flask-clean ?f))))

  (:action add-reagent
    :parameters (?second - substance ?f - flask ?first - substance ?product - substance)
    :precondition (and (contains ?f ?first) (stocked ?second) (on-bench ?f)
                       (reaction ?first ?second ?product))
    :effect (and (unreacted-mixture ?f ?product)
                 (not (contains ?f ?first))))

  (:action light-burner
    :parameters (?b - burner)
    :precondition (burner-free ?b)
    :effect (burner-lit ?b))

  (:action place-on-burner
    :parameters (?f - flask ?b - burner)
    :precondition (and (on-bench ?f) (burner-free ?b))
    :effect (and (on-burner ?f ?b)
                 (not (on-bench ?f))
                 (not (burner-free ?b))))

  (:action heat
    :parameters (?f - flask ?b - burner ?product - substance)
    :precondition (and (on-burner ?f ?b) (burner-lit ?b) (unreacted-mixture ?f ?product))
    :effect (and (contains ?f ?product)
                 (not (unreacted-mixture ?f ?product))))

  (:action take-off-burner
    :parameters (?f - flask ?b - burner)
    :precondition (on-burner ?f ?b)
    :effect (and (on-bench ?f)
                 (burner-free ?b)
                 (not (on-burner ?f ?b))))

  (:action bottle-product
    :parameters (?f - flask ?s - substance)
    :precondition (and (contains ?f ?s) (on-bench ?f))
    :effect (and (stocked ?s)
                 (flask-dirty ?f)
                 (not (contains ?f ?s))))

  (:action wash-flask
    :parameters (?f - flask)
    :precondition (and (flask-dirty ?f) (on-bench ?f))
    :effect (and (flask-clean ?f)
                 (not (flask-dirty ?f)))))
