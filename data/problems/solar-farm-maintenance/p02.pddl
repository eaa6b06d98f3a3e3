(define (problem solar-farm-maintenance-p02)
  (:domain solar-farm-maintenance)
  (:objects
    sam lee - technician
    depot row-a row-b - location
    pa1 pa2 pb1 pb2 - panel
    inv-a inv-b - inverter
    glass1 - spare-glass
    w0 w1 w2 - water-amount)
  (:init
    (at sam depot) (hands-free sam) (water sam w0)
    (at lee row-b) (hands-free lee) (water lee w1)
    (path depot row-a) (path row-a depot)
    (path row-a row-b) (path row-b row-a)
    (water-point depot)
    (less-water w0 w1) (less-water w1 w2) (full-tank w2)
    (glass-at glass1 depot)
    (panel-in pa1 row-a) (dirty pa1) (intact pa1)
    (panel-in pa2 row-a) (dirty pa2) (cracked pa2)
    (panel-in pb1 row-b) (clean pb1) (intact pb1)
    (panel-in pb2 row-b) (dirty pb2) (intact pb2)
    (inverter-in inv-a row-a) (inverter-in inv-b row-b)
    (wired pa1 inv-a) (wired pa2 inv-a) (wired pb1 inv-b) (wired pb2 inv-b)
    (inverter-online inv-a) (inverter-ok inv-a)
    (inverter-isolated inv-b) (inverter-faulted inv-b))
  (:goal (and (producing pa1) (producing pa2) (producing pb1) (producing pb2))))
