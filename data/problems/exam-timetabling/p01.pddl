(define (problem exam-timetabling-p01)
  (:domain exam-timetabling)
  (:objects algebra - exam
            main-hall - hall
            monday-am - slot
            sam tia - student
            prof-ray dr-uma - staff
            s0 s1 s2 - level)
  (:init (unscheduled algebra) (suits algebra main-hall)
         (enrolled sam algebra) (enrolled tia algebra)
         (free sam monday-am) (free tia monday-am)
         (seats-left main-hall monday-am s2)
         (fewer s0 s1) (fewer s1 s2)
         (set-by prof-ray algebra)
         (staff-free prof-ray monday-am) (staff-free dr-uma monday-am)
         (needs-invigilator algebra))
  (:goal (and (seated sam algebra) (seated tia algebra) (invigilates dr-uma algebra))))
