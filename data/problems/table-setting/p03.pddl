(define (problem table-setting-p03)
  (:domain table-setting)
  (:objects kitchen hall cupboard drawer table-west table-east - location
            seat1 seat2 seat3 - seat
            plate1 plate2 plate3 - plate
            fork1 fork2 fork3 - fork
            knife1 knife2 knife3 - knife
            glass1 glass2 - glass
            n0 n1 n2 n3 n4 - count)
  (:init (waiter-at kitchen)
         (connected kitchen cupboard) (connected cupboard kitchen)
         (connected kitchen drawer) (connected drawer kitchen)
         (connected kitchen hall) (connected hall kitchen)
         (connected hall table-west) (connected table-west hall)
         (connected table-west table-east) (connected table-east table-west)
         (item-at plate1 cupboard) (item-at plate2 cupboard)
         (item-at glass1 cupboard) (item-at glass2 cupboard)
         (item-at fork1 drawer) (item-at fork2 drawer) (item-at fork3 drawer)
         (item-at knife1 drawer) (item-at knife2 drawer) (item-at knife3 drawer)
         (placed plate3 seat3) (plate-set seat3)
         (tray-load n0) (count-step n0 n1) (count-step n1 n2)
         (count-step n2 n3) (count-step n3 n4)
         (seat-near seat1 table-west) (seat-near seat2 table-west)
         (seat-near seat3 table-east))
  (:goal (and (placed plate1 seat1) (fork-set seat1) (knife-set seat1) (glass-set seat1)
              (fork-set seat2) (knife-set seat2) (glass-set seat2)
              (fork-set seat3) (knife-set seat3))))
