(define (problem hospital-staffing-p01)
  (:domain hospital-staffing)
  (:objects icu - ward
            day night - shift
            intensive-care - specialty
            zero one two - count
            ann bob - nurse
            dr-kim dr-lee - doctor)
  (:init (one-less zero one) (one-less one two)
         (ward-specialty icu intensive-care)
         (specialist dr-kim intensive-care) (specialist dr-lee intensive-care)
         (available ann day) (available ann night)
         (available bob day) (available bob night)
         (available dr-kim day) (available dr-kim night)
         (available dr-lee day) (available dr-lee night)
         (shifts-left ann one) (shifts-left bob two)
         (shifts-left dr-kim one) (shifts-left dr-lee one)
         (trained-for ann icu)
         (doctor-needed icu day) (doctor-needed icu night)
         (nurses-missing icu day one) (nurses-missing icu night one))
  (:goal (and (doctor-covered icu day) (doctor-covered icu night)
              (nurses-missing icu day zero) (nurses-missing icu night zero))))
