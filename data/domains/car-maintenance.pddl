(define (domain car-maintenance)
  (:requirements :strips :typing)
  (:types hub wheel jack)
  (:predicates
    (wheel-on ?w - wheel ?h - hub)
    (hub-empty ?h - hub)
    (nuts-tight ?h - hub)
    (nuts-loose ?h - hub)
    (on-ground ?h - hub)
    (jack-under ?j - jack ?h - hub)
    (jack-free ?j - jack)
    (front ?h - hub)
    (wheel-on-floor ?w - wheel)
    (flat ?w - wheel)
    (inflated ?w - wheel)
    (plug-in)
    (plug-out)
    (oil-old)
    (oil-empty)
    (oil-fresh)
    (filter-old)
    (filter-new))

  (:action loosen-nuts
    :parameters (?h - hub)
    :precondition (and (nuts-tight ?h) (on-ground ?h))
    :effect (and (nuts-loose ?h)
                 (not (nuts-tight ?h))))

  (:action tighten-nuts
    :parameters (?h - hub)
    :precondition (and (nuts-loose ?h) (on-ground ?h))
    :effect (and (nuts-tight ?h)
                 (not (nuts-loose ?h))))

  (:action raise-corner
    :parameters (?j - jack ?h - hub)
    :precondition (and (jack-free ?j) (on-ground ?h))
    :effect (and (jack-under ?j ?h)
                 (not (on-ground ?h))
                 (not (jack-free ?j))))

  (:action lower-corner
    :parameters (?j - jack ?h - hub ?w - wheel)
    :precondition (and (jack-under ?j ?h) (wheel-on ?w ?h))
    :effect (and (on-ground ?h)
                 (jack-free ?j)
                 (not (jack-under ?j ?h))))

  (:action remove-wheel
    :parameters (?w - wheel ?h - hub ?j - jack)
    :precondition (and (wheel-on ?w ?h) (nuts-loose ?h) (jack-under ?j ?h))
    :effect (and (wheel-on-floor ?w)
                 (hub-empty ?h)
                 (not (wheel-on ?w ?h))
                 (not (nuts-loose ?h))))

  (:action mount-wheel
    :parameters (?w - wheel ?h - hub ?j - jack)
    :precondition (and (wheel-on-floor ?w) (hub-empty ?h) (jack-under ?j ?h) (inflated ?w))
    :effect (and (wheel-on ?w ?h)
                 (nuts-loose ?h)
                 (not (wheel-on-floor ?w))
                 (not (hub-empty ?h))))

  (:action inflate-tyre
    :parameters (?w - wheel)
    :precondition (and (wheel-on-floor ?w) (flat ?w))
    :effect (and (inflated ?w)
                 (not (flat ?w))))

  (:action drain-oil
    :parameters (?j - jack ?h - hub)
    :precondition (and (jack-under ?j ?h) (front ?h) (plug-in) (oil-old))
    :effect (and (plug-out)
                 (oil-empty)
                 (not (plug-in))
                 (not (oil-old))))

  (:action replace-filter
    :parameters ()
    :precondition (and (filter-old) (oil-empty))
    :effect (and (filter-new)
                 (not (filter-old))))

  (:action refit-plug
    :parameters ()
    :precondition (plug-out)
    :effect (and (plug-in)
                 (not (plug-out))))

  (:action pour-oil
    :parameters ()
    :precondition (and (plug-in) (oil-empty) (filter-new))
    :effect (and (oil-fresh)
                 (not (oil-empty)))))
