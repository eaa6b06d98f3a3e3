(define (problem table-setting-p01)
  (:domain table-setting)
  (:objects sideboard table-end - location seat1 - seat
            plate1 - plate fork1 - fork knife1 - knife
            n0 n1 n2 n3 - count)
  (:init (waiter-at sideboard)
         (connected sideboard table-end) (connected table-end sideboard)
         (item-at plate1 sideboard) (item-at fork1 sideboard) (item-at knife1 sideboard)
         (tray-load n0) (count-step n0 n1) (count-step n1 n2) (count-step n2 n3)
         (seat-near seat1 table-end))
  (:goal (and (fork-set seat1) (knife-set seat1))))
