(define (problem textile-dyeing-p01)
  (:domain textile-dyeing)
  (:objects
    scarf - fabric
    bath1 - dye-bath
    indigo - colour
    soda-fix - fixer
    n0 n1 - charge)
  (:init
    (raw scarf)
    (bath-colour bath1 indigo) (bath-charge bath1 n0)
    (fewer n0 n1) (exhausted n0) (full-charge n1)
    (fixes soda-fix indigo))
  (:goal (and (dyed scarf indigo) (rinsed scarf))))
