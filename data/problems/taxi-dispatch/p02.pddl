(define (problem taxi-dispatch-p02)
  (:domain taxi-dispatch)
  (:objects cab1 cab2 - taxi
            ada ben carl - passenger
            station park museum harbour airport - location)
  (:init (taxi-at cab1 station) (taxi-at cab2 airport) (taxi-rank station) (taxi-rank airport)
         (road station park) (road park station) (road park museum) (road museum park)
         (road museum harbour) (road harbour museum) (road harbour airport)
         (road airport harbour)
         (passenger-at ada park) (destination ada harbour) (awaiting-taxi ada)
         (passenger-at ben airport) (destination ben station) (awaiting-taxi ben)
         (passenger-at carl museum) (destination carl airport) (awaiting-taxi carl))
  (:goal (and (delivered ada) (delivered ben) (delivered carl)
              (not (on-duty cab1)) (not (on-duty cab2)))))
