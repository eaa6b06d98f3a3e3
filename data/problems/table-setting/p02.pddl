(define (problem table-setting-p02)
  (:domain table-setting)
  (:objects cupboard drawer table-end - location
            seat1 seat2 - seat
            plate1 plate2 - plate fork1 fork2 - fork knife1 knife2 - knife
            glass1 - glass
            n0 n1 n2 n3 n4 - count)
  (:init (waiter-at cupboard)
         (connected cupboard drawer) (connected drawer cupboard)
         (connected drawer table-end) (connected table-end drawer)
         (item-at plate1 cupboard) (item-at plate2 cupboard) (item-at glass1 cupboard)
         (item-at fork1 drawer) (item-at fork2 drawer)
         (item-at knife1 drawer) (item-at knife2 drawer)
         (tray-load n0) (count-step n0 n1) (count-step n1 n2)
         (count-step n2 n3) (count-step n3 n4)
         (seat-near seat1 table-end) (seat-near seat2 table-end))
  (:goal (and (glass-set seat1) (fork-set seat1)
              (fork-set seat2) (knife-set seat2))))
