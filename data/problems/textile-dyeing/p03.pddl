(define (problem textile-dyeing-p03)
  (:domain textile-dyeing)
  (:objects scarf-a - fabric
            bath1-a - dye-bath
            indigo-a - colour
            soda-fix-a - fixer
            n0-a n1-a - charge
            shirt-b towel-b sheet-b curtain-b - fabric
            bath-a-b bath-b-b - dye-bath
            indigo-b madder-b saffron-b - colour
            soda-fix-b alum-fix-b - fixer
            n0-b n1-b n2-b - charge)
  (:init
    (raw scarf-a) (bath-colour bath1-a indigo-a) (bath-charge bath1-a n1-a) (fewer n0-a n1-a)
    (exhausted n0-a) (full-charge n1-a) (fixes soda-fix-a indigo-a) (raw shirt-b)
    (raw towel-b) (raw sheet-b) (ready-to-dye curtain-b) (bath-colour bath-a-b indigo-b)
    (bath-charge bath-a-b n1-b) (bath-colour bath-b-b madder-b) (bath-charge bath-b-b n0-b) (fewer n0-b n1-b)
    (fewer n1-b n2-b) (exhausted n0-b) (full-charge n2-b) (fixes soda-fix-b indigo-b)
    (fixes alum-fix-b madder-b) (fixes alum-fix-b saffron-b))
  (:goal (and (dyed scarf-a indigo-a) (rinsed scarf-a)
              (dyed shirt-b indigo-b) (rinsed shirt-b)
              (dyed towel-b saffron-b) (rinsed towel-b)
              (dyed sheet-b saffron-b) (rinsed sheet-b)
              (dyed curtain-b madder-b) (rinsed curtain-b))))
