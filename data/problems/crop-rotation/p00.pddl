(define (problem crop-rotation-p00)
  (:domain crop-rotation)
  (:objects north - field
            wheat clover - crop
            grain legume - family
            spring summer autumn - season
            poor fair - level)
  (:init (now spring)
         (next-season spring summer) (next-season summer autumn)
         (sow-time clover spring) (sow-time wheat summer)
         (family-of wheat grain) (family-of clover legume)
         (may-follow grain legume) (may-follow legume grain)
         (last-family north grain)
         (bare north)
         (fertility north poor)
         (richer poor fair)
         (heavy-feeder wheat)
         (nitrogen-fixer clover) (light-feeder clover))
  (:goal (harvested clover)))
