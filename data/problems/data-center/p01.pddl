(define (problem data-center-p01)
  (:domain data-center)
  (:objects rack-a - rack
            web1 - server
            backup report - job
            n0 n1 n2 n3 - level)
  (:init (next n0 n1) (next n1 n2) (next n2 n3) (zero n0)
         (in-rack web1 rack-a)
         (heat rack-a n0) (heat-limit rack-a n2)
         (load web1 n0) (max-load web1 n2)
         (queued backup) (queued report))
  (:goal (and (finished backup) (finished report) (heat rack-a n0))))
