(define (domain warehouse-forklift)
  (:requirements :strips :typing)
  (:types forklift pallet place storage - object
          shelf dock - storage)
  (:predicates
    (forklift-at ?f - forklift ?p - place)
    (aisle ?from - place ?to - place)
    (storage-at ?s - storage ?p - place)
    (pallet-in ?pl - pallet ?s - storage)
    (vacant ?s - storage)
    (lifting ?f - forklift ?pl - pallet)
    (forks-empty ?f - forklift)
    (forks-raised ?f - forklift)
    (forks-lowered ?f - forklift))

  (:action drive
    :parameters (?f - forklift ?from - place ?to - place)
    :precondition (and (forklift-at ?f ?from) (aisle ?from ?to) (forks-lowered ?f))
    :effect (and (forklift-at ?f ?to)
                 (not (forklift-at ?f ?from))))

  (:action raise-forks
    :parameters (?f - forklift)
    :precondition (forks-lowered ?f)
    :effect (and (forks-raised ?f)
                 (not (forks-lowered ?f))))

  (:action lower-forks
    :parameters (?f - forklift)
    :precondition (forks-raised ?f)
    :effect (and (forks-lowered ?f)
                 (not (forks-raised ?f))))

  (:action take-from-shelf
    :parameters (?f - forklift ?pl - pallet ?s - shelf ?p - place)
    :precondition (and (forklift-at ?f ?p) (storage-at ?s ?p) (pallet-in ?pl ?s)
                       (forks-empty ?f) (forks-raised ?f))
    :effect (and (lifting ?f ?pl)
                 (vacant ?s)
                 (not (pallet-in ?pl ?s))
                 (not (forks-empty ?f))))

  (:action put-on-shelf
    :parameters (?f - forklift ?pl - pallet ?s - shelf ?p - place)
    :precondition (and (forklift-at ?f ?p) (storage-at ?s ?p) (vacant ?s)
                       (lifting ?f ?pl) (forks-raised ?f))
    :effect (and (pallet-in ?pl ?s)
                 (forks-empty ?f)
                 (not (lifting ?f ?pl))
                 (not (vacant ?s))))

  (:action take-from-dock
    :parameters (?f - forklift ?pl - pallet ?d - dock ?p - place)
    :precondition (and (forklift-at ?f ?p) (storage-at ?d ?p) (pallet-in ?pl ?d)
                       (forks-empty ?f) (forks-lowered ?f))
    :effect (and (lifting ?f ?pl)
                 (vacant ?d)
                 (not (pallet-in ?pl ?d))
                 (not (forks-empty ?f))))

  (:action put-on-dock
    :parameters (?f - forklift ?pl - pallet ?d - dock ?p - place)
    :precondition (and (forklift-at ?f ?p) (storage-at ?d ?p) (vacant ?d)
                       (lifting ?f ?pl) (forks-lowered ?f))
    :effect (and (pallet-in ?pl ?d)
                 (forks-empty ?f)
                 (not (lifting ?f ?pl))
                 (not (vacant ?d)))))
