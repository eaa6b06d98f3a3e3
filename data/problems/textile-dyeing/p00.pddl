(define (problem textile-dyeing-p00)
  (:domain textile-dyeing)
  (:objects
    scarf shawl - fabric
    bath1 - dye-bath
    indigo - colour
    soda-fix - fixer
    n0 n1 - charge)
  (:init
    (raw scarf) (raw shawl)
    (bath-colour bath1 indigo) (bath-charge bath1 n1)
    (fewer n0 n1) (full-charge n1)
    (fixes soda-fix indigo))
  (:goal (and (dyed scarf indigo) (dyed shawl indigo) (rinsed scarf) (rinsed shawl))))
