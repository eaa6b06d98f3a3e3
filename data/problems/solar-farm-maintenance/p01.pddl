(define (problem solar-farm-maintenance-p01)
  (:domain solar-farm-maintenance)
  (:objects
    sam - technician
    depot row1 - location
    panel1 - panel
    inv1 - inverter
    w0 w1 - water-amount)
  (:init
    (at sam depot) (hands-free sam) (water sam w0)
    (path depot row1) (path row1 depot)
    (water-point depot)
    (less-water w0 w1) (full-tank w1)
    (panel-in panel1 row1) (dirty panel1) (intact panel1)
    (inverter-in inv1 row1) (wired panel1 inv1)
    (inverter-online inv1) (inverter-ok inv1))
  (:goal (producing panel1)))
