(define (problem ambulance-triage-p02)
  (:domain ambulance-triage)
  (:objects medic1 medic2 - ambulance
            hugo iris jon - patient
            base crossing mall quarry - location
            general trauma-center - hospital
            minor serious critical - severity)
  (:init (ambulance-at medic1 base) (ambulance-empty medic1) (has-kit medic1)
         (rated-for medic1 minor) (rated-for medic1 serious)
         (ambulance-at medic2 mall) (ambulance-empty medic2)
         (rated-for medic2 minor) (rated-for medic2 serious) (rated-for medic2 critical)
         (road base crossing) (road crossing base) (road crossing mall) (road mall crossing)
         (road mall quarry) (road quarry mall)
         (hospital-at general base) (treats general minor) (treats general serious)
         (hospital-at trauma-center mall) (treats trauma-center serious)
         (treats trauma-center critical)
         (patient-at hugo crossing) (has-severity hugo minor)
         (patient-at iris quarry) (has-severity iris critical)
         (patient-at jon mall) (has-severity jon serious))
  (:goal (and (admitted hugo general) (admitted iris trauma-center) (admitted jon general))))
