(define (domain furniture-assembly)
  (:requirements :strips :typing)
  (:types part fastener kind tool orientation)
  (:predicates
    (mounted ?p - part)
    (loose ?p - part)
    (attaches-to ?p - part ?q - part)
    (positioned ?p - part ?q - part)
    (steady)
    (joint-kind ?p - part ?k - kind)
    (fastener-kind ?f - fastener ?k - kind)
    (unused ?f - fastener)
    (drives ?t - tool ?k - kind)
    (tool-on-bench ?t - tool)
    (holding-tool ?t - tool)
    (hand-free)
    (frame-facing ?o - orientation)
    (needs-facing ?p - part ?o - orientation)
    (opposite ?o1 - orientation ?o2 - orientation))

  (:action pick-tool
    :parameters (?t - tool)
    :precondition (and (tool-on-bench ?t) (hand-free))
    :effect (and (holding-tool ?t)
                 (not (tool-on-bench ?t))
                 (not (hand-free))))

  (:action put-down-tool
    :parameters (?t - tool)
    :precondition (holding-tool ?t)
    :effect (and (tool-on-bench ?t)
                 (hand-free)
                 (not (holding-tool ?t))))

  (:action flip-frame
    :parameters (?from - orientation ?to - orientation)
    :precondition (and (frame-facing ?from) (opposite ?from ?to) (steady) (hand-free))
    :effect (and (frame-facing ?to)
                 (not (frame-facing ?from))))

  (:action position-part
    :parameters (?p - part ?q - part ?o - orientation)
    :precondition (and (loose ?p) (mounted ?q) (attaches-to ?p ?q)
                       (needs-facing ?p ?o) (frame-facing ?o) (steady) (hand-free))
    :effect (and (positioned ?p ?q)
                 (not (loose ?p))
                 (not (steady))))

  (:action fasten-part
    :parameters (?p - part ?q - part ?f - fastener ?k - kind ?t - tool)
    :precondition (and (positioned ?p ?q) (joint-kind ?p ?k) (fastener-kind ?f ?k)
                       (unused ?f) (drives ?t ?k) (holding-tool ?t))
    :effect (and (mounted ?p)
                 (steady)
                 (not (positioned ?p ?q))
                 (not (unused ?f)))))
