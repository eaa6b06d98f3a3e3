(define (domain smart-home)
  (:requirements :adl)
  (:types room switch lamp)
  (:predicates
    (resident-in ?r - room)
    (door ?from - room ?to - room)
    (switch-in ?s - switch ?r - room)
    (controls ?s - switch ?l - lamp)
    (smart ?s - switch)
    (wifi-in ?r - room)
    (hub-in ?r - room)
    (lamp-on ?l - lamp))

  (:action walk
    :parameters (?from - room ?to - room)
    :precondition (and (resident-in ?from) (door ?from ?to))
    :effect (and (resident-in ?to)
                 (not (resident-in ?from))))

  (:action press-switch
    :parameters (?s - switch ?r - room)
    :precondition (and (resident-in ?r) (switch-in ?s ?r))
    :effect (forall (?l - lamp)
              (and (when (and (controls ?s ?l) (lamp-on ?l)) (not (lamp-on ?l)))
                   (when (and (controls ?s ?l) (not (lamp-on ?l))) (lamp-on ?l)))))

  (:action tap-in-app
    :parameters (?s - switch ?r - room)
    :precondition (and (resident-in ?r) (wifi-in ?r) (smart ?s))
    :effect (forall (?l - lamp)
              (and (when (and (controls ?s ?l) (lamp-on ?l)) (not (lamp-on ?l)))
                   (when (and (controls ?s ?l) (not (lamp-on ?l))) (lamp-on ?l)))))

  (:action all-off
    :parameters (?r - room)
    :precondition (and (resident-in ?r) (hub-in ?r)
                       (exists (?l - lamp) (lamp-on ?l)))
    :effect (forall (?l - lamp) (not (lamp-on ?l)))))
