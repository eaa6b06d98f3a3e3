(define (problem textile-dyeing-p02)
  (:domain textile-dyeing)
  (:objects
    shirt towel sheet curtain - fabric
    bath-a bath-b - dye-bath
    indigo madder saffron - colour
    soda-fix alum-fix - fixer
    n0 n1 n2 - charge)
  (:init
    (raw shirt) (raw towel) (raw sheet) (ready-to-dye curtain)
    (bath-colour bath-a indigo) (bath-charge bath-a n1)
    (bath-colour bath-b madder) (bath-charge bath-b n0)
    (fewer n0 n1) (fewer n1 n2) (exhausted n0) (full-charge n2)
    (fixes soda-fix indigo) (fixes alum-fix madder) (fixes alum-fix saffron))
  (:goal (and (dyed shirt indigo) (rinsed shirt)
              (dyed towel saffron) (rinsed towel)
              (dyed sheet saffron) (rinsed sheet)
              (dyed curtain madder) (rinsed curtain))))
