(define (problem taxi-dispatch-p01)
  (:domain taxi-dispatch)
  (:objects cab1 - taxi
            ada - passenger
            station park - location)
  (:init (taxi-at cab1 station) (taxi-rank station) (on-duty cab1)
         (road station park) (road park station)
         (passenger-at ada station) (destination ada park) (awaiting-taxi ada))
  (:goal (delivered ada)))
