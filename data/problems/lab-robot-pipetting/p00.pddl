(define (problem lab-robot-pipetting-p00)
  (:domain lab-robot-pipetting)
  (:objects
    buffer-well target-well - well
    rack1 - rack
    chute1 - chute
    tip1 tip2 - tip
    buffer - liquid
    v0 v1 v2 - volume)
  (:init
    (arm-over rack1)
    (tip-in-rack tip1 rack1) (tip-in-rack tip2 rack1)
    (source-of buffer-well buffer) (well-volume buffer-well v2)
    (well-volume target-well v0)
    (vol-next v0 v1) (vol-next v1 v2))
  (:goal (has-liquid target-well buffer)))
