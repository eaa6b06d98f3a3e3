(define (problem ambulance-triage-p01)
  (:domain ambulance-triage)
  (:objects medic1 - ambulance
            hugo - patient
            base crossing - location
            general - hospital
            minor - severity)
  (:init (ambulance-at medic1 crossing) (ambulance-empty medic1) (has-kit medic1)
         (rated-for medic1 minor)
         (road base crossing) (road crossing base)
         (hospital-at general base) (treats general minor)
         (patient-at hugo crossing) (has-severity hugo minor))
  (:goal (admitted hugo general)))
