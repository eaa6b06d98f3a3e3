(define (problem solar-farm-maintenance-p03)
  (:domain solar-farm-maintenance)
  (:objects sam-a - technician
            depot-a row1-a - location
            panel1-a - panel
            inv1-a - inverter
            w0-a w1-a - water-amount
            sam-b lee-b - technician
            depot-b row-a-b row-b-b - location
            pa1-b pa2-b pb1-b pb2-b - panel
            inv-a-b inv-b-b - inverter
            glass1-b - spare-glass
            w0-b w1-b w2-b - water-amount)
  (:init
    (at sam-a depot-a) (hands-free sam-a) (water sam-a w0-a) (path depot-a row1-a)
    (path row1-a depot-a) (water-point depot-a) (less-water w0-a w1-a) (full-tank w1-a)
    (panel-in panel1-a row1-a) (dirty panel1-a) (intact panel1-a) (inverter-in inv1-a row1-a)
    (wired panel1-a inv1-a) (inverter-online inv1-a) (inverter-ok inv1-a) (at sam-b depot-b)
    (hands-free sam-b) (water sam-b w0-b) (at lee-b row-b-b) (hands-free lee-b)
    (water lee-b w1-b) (path depot-b row-a-b) (path row-a-b depot-b) (path row-a-b row-b-b)
    (path row-b-b row-a-b) (water-point depot-b) (less-water w0-b w1-b) (less-water w1-b w2-b)
    (full-tank w2-b) (glass-at glass1-b depot-b) (panel-in pa1-b row-a-b) (dirty pa1-b)
    (intact pa1-b) (panel-in pa2-b row-a-b) (dirty pa2-b) (cracked pa2-b)
    (panel-in pb1-b row-b-b) (clean pb1-b) (intact pb1-b) (panel-in pb2-b row-b-b)
    (dirty pb2-b) (intact pb2-b) (inverter-in inv-a-b row-a-b) (inverter-in inv-b-b row-b-b)
    (wired pa1-b inv-a-b) (wired pa2-b inv-a-b) (wired pb1-b inv-b-b) (wired pb2-b inv-b-b)
    (inverter-online inv-a-b) (inverter-ok inv-a-b) (inverter-isolated inv-b-b) (inverter-faulted inv-b-b))
  (:goal (and (producing panel1-a)
              (producing pa1-b) (producing pa2-b) (producing pb1-b) (producing pb2-b))))
