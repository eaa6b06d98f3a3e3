(define (problem exam-timetabling-p03)
  (:domain exam-timetabling)
  (:objects algebra-a - exam
            main-hall-a - hall
            monday-am-a - slot
            sam-a tia-a - student
            prof-ray-a dr-uma-a - staff
            s0-a s1-a s2-a - level
            algebra-b chemistry-b history-b biology-b - exam
            main-hall-b lab-hall-b - hall
            mon-am-b mon-pm-b tue-am-b - slot
            sam-b tia-b uli-b vera-b walt-b - student
            prof-ray-b dr-uma-b dr-voss-b - staff
            s0-b s1-b s2-b s3-b - level)
  (:init
    (unscheduled algebra-a) (suits algebra-a main-hall-a) (enrolled sam-a algebra-a) (enrolled tia-a algebra-a)
    (free sam-a monday-am-a) (free tia-a monday-am-a) (seats-left main-hall-a monday-am-a s2-a) (fewer s0-a s1-a)
    (fewer s1-a s2-a) (set-by prof-ray-a algebra-a) (staff-free prof-ray-a monday-am-a) (staff-free dr-uma-a monday-am-a)
    (needs-invigilator algebra-a) (fewer s0-b s1-b) (fewer s1-b s2-b) (fewer s2-b s3-b)
    (unscheduled algebra-b) (unscheduled chemistry-b) (unscheduled history-b) (unscheduled biology-b)
    (suits algebra-b main-hall-b) (suits history-b main-hall-b) (suits chemistry-b lab-hall-b) (suits biology-b lab-hall-b)
    (suits biology-b main-hall-b) (enrolled sam-b algebra-b) (enrolled tia-b algebra-b) (enrolled uli-b algebra-b)
    (enrolled sam-b chemistry-b) (enrolled vera-b chemistry-b) (enrolled tia-b history-b) (enrolled walt-b history-b)
    (enrolled uli-b history-b) (enrolled vera-b biology-b) (enrolled walt-b biology-b) (enrolled sam-b biology-b)
    (free sam-b mon-am-b) (free sam-b mon-pm-b) (free sam-b tue-am-b) (free tia-b mon-am-b)
    (free tia-b mon-pm-b) (free tia-b tue-am-b) (free uli-b mon-am-b) (free uli-b mon-pm-b)
    (free uli-b tue-am-b) (free vera-b mon-am-b) (free vera-b mon-pm-b) (free vera-b tue-am-b)
    (free walt-b mon-pm-b) (free walt-b tue-am-b) (seats-left main-hall-b mon-am-b s3-b) (seats-left main-hall-b mon-pm-b s3-b)
    (seats-left main-hall-b tue-am-b s3-b) (seats-left lab-hall-b mon-am-b s2-b) (seats-left lab-hall-b mon-pm-b s2-b) (seats-left lab-hall-b tue-am-b s2-b)
    (set-by prof-ray-b algebra-b) (set-by dr-uma-b chemistry-b) (set-by dr-voss-b history-b) (set-by dr-uma-b biology-b)
    (staff-free prof-ray-b mon-am-b) (staff-free prof-ray-b mon-pm-b) (staff-free prof-ray-b tue-am-b) (staff-free dr-uma-b mon-am-b)
    (staff-free dr-uma-b tue-am-b) (staff-free dr-voss-b mon-pm-b) (staff-free dr-voss-b tue-am-b) (needs-invigilator algebra-b)
    (needs-invigilator chemistry-b) (needs-invigilator history-b) (needs-invigilator biology-b))
  (:goal (and (seated sam-a algebra-a) (seated tia-a algebra-a) (invigilates dr-uma-a algebra-a)
              (seated sam-b algebra-b) (seated tia-b algebra-b) (seated uli-b algebra-b)
              (seated sam-b chemistry-b) (seated vera-b chemistry-b)
              (seated tia-b history-b) (seated walt-b history-b) (seated uli-b history-b)
              (seated vera-b biology-b) (seated walt-b biology-b) (seated sam-b biology-b)
              (supervised algebra-b) (supervised chemistry-b)
              (supervised history-b) (supervised biology-b))))
