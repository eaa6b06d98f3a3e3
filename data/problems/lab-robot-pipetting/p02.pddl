(define (problem lab-robot-pipetting-p02)
  (:domain lab-robot-pipetting)
  (:objects
    reservoir-dna reservoir-enzyme reservoir-water a1 a2 b1 - well
    rack1 - rack
    chute1 - chute
    tip1 tip2 tip3 tip4 tip5 - tip
    dna enzyme water - liquid
    v0 v1 v2 v3 - volume)
  (:init
    (arm-over chute1)
    (tip-in-rack tip1 rack1) (tip-in-rack tip2 rack1) (tip-in-rack tip3 rack1)
    (tip-in-rack tip4 rack1) (tip-in-rack tip5 rack1)
    (tip-used tip1)
    (vol-next v0 v1) (vol-next v1 v2) (vol-next v2 v3)
    (source-of reservoir-dna dna) (well-volume reservoir-dna v1)
    (source-of reservoir-enzyme enzyme) (well-volume reservoir-enzyme v2)
    (source-of reservoir-water water) (well-volume reservoir-water v3)
    (sealed reservoir-enzyme)
    (well-volume a1 v1) (has-liquid a1 dna) (well-volume a2 v0) (well-volume b1 v2)
    (sealed a2))
  (:goal (and (has-liquid a1 dna) (has-liquid a1 enzyme)
              (has-liquid a2 water)
              (not (arm-busy)))))
