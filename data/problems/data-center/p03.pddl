(define (problem data-center-p03)
  (:domain data-center)
  (:objects rack-a-a - rack
            web1-a - server
            backup-a report-a - job
            n0-a n1-a n2-a n3-a - level
            rack-a-b rack-b-b - rack
            web1-b web2-b gpu1-b db1-b - server
            backup-b report-b train-model-b render-b index-b crawl-b - job
            n0-b n1-b n2-b n3-b - level)
  (:init
    (next n0-a n1-a) (next n1-a n2-a) (next n2-a n3-a) (zero n0-a)
    (in-rack web1-a rack-a-a) (heat rack-a-a n0-a) (heat-limit rack-a-a n2-a) (load web1-a n0-a)
    (max-load web1-a n2-a) (queued backup-a) (queued report-a) (next n0-b n1-b)
    (next n1-b n2-b) (next n2-b n3-b) (zero n0-b) (in-rack web1-b rack-a-b)
    (in-rack web2-b rack-a-b) (in-rack db1-b rack-a-b) (in-rack gpu1-b rack-b-b) (heat rack-a-b n1-b)
    (heat-limit rack-a-b n2-b) (heat rack-b-b n0-b) (heat-limit rack-b-b n1-b) (cooling-on rack-a-b)
    (powered db1-b) (load web1-b n0-b) (max-load web1-b n2-b) (load web2-b n0-b)
    (max-load web2-b n1-b) (load db1-b n1-b) (max-load db1-b n1-b) (load gpu1-b n0-b)
    (max-load gpu1-b n2-b) (has-gpu gpu1-b) (running index-b db1-b) (queued backup-b)
    (queued report-b) (queued crawl-b) (queued train-model-b) (needs-gpu train-model-b)
    (queued render-b) (needs-gpu render-b))
  (:goal (and (finished backup-a) (finished report-a) (heat rack-a-a n0-a)
              (finished backup-b) (finished report-b) (finished crawl-b) (finished index-b)
              (finished train-model-b) (finished render-b)
              (heat rack-b-b n0-b)
              (not (cooling-on rack-a-b)))))
