(define (problem hospital-staffing-p03)
  (:domain hospital-staffing)
  (:objects icu-a - ward
            day-a night-a - shift
            intensive-care-a - specialty
            zero-a one-a two-a - count
            ann-a bob-a - nurse
            dr-kim-a dr-lee-a - doctor
            icu-b maternity-b surgery-b - ward
            early-b late-b night-b - shift
            intensive-care-b obstetrics-b general-surgery-b - specialty
            zero-b one-b two-b three-b - count
            ann-b bob-b cara-b dina-b eve-b finn-b - nurse
            dr-kim-b dr-lee-b dr-moss-b dr-ng-b - doctor)
  (:init
    (one-less zero-a one-a) (one-less one-a two-a) (ward-specialty icu-a intensive-care-a) (specialist dr-kim-a intensive-care-a)
    (specialist dr-lee-a intensive-care-a) (available ann-a day-a) (available ann-a night-a) (available bob-a day-a)
    (available bob-a night-a) (available dr-kim-a day-a) (available dr-kim-a night-a) (available dr-lee-a day-a)
    (available dr-lee-a night-a) (shifts-left ann-a one-a) (shifts-left bob-a two-a) (shifts-left dr-kim-a one-a)
    (shifts-left dr-lee-a one-a) (trained-for ann-a icu-a) (doctor-needed icu-a day-a) (doctor-needed icu-a night-a)
    (nurses-missing icu-a day-a one-a) (nurses-missing icu-a night-a one-a) (one-less zero-b one-b) (one-less one-b two-b)
    (one-less two-b three-b) (ward-specialty icu-b intensive-care-b) (ward-specialty maternity-b obstetrics-b) (ward-specialty surgery-b general-surgery-b)
    (specialist dr-kim-b intensive-care-b) (specialist dr-kim-b general-surgery-b) (specialist dr-lee-b obstetrics-b) (specialist dr-moss-b general-surgery-b)
    (specialist dr-ng-b intensive-care-b) (specialist dr-ng-b obstetrics-b) (available ann-b early-b) (available ann-b late-b)
    (available ann-b night-b) (available bob-b early-b) (available bob-b late-b) (available cara-b late-b)
    (available cara-b night-b) (available dina-b early-b) (available dina-b late-b) (available dina-b night-b)
    (available eve-b early-b) (available eve-b night-b) (available finn-b early-b) (available finn-b late-b)
    (available finn-b night-b) (available dr-kim-b early-b) (available dr-kim-b late-b) (available dr-kim-b night-b)
    (available dr-lee-b early-b) (available dr-lee-b night-b) (available dr-moss-b late-b) (available dr-moss-b night-b)
    (available dr-ng-b early-b) (available dr-ng-b late-b) (shifts-left ann-b two-b) (shifts-left bob-b two-b)
    (shifts-left cara-b one-b) (shifts-left dina-b three-b) (shifts-left eve-b one-b) (shifts-left finn-b three-b)
    (shifts-left dr-kim-b two-b) (shifts-left dr-lee-b two-b) (shifts-left dr-moss-b one-b) (shifts-left dr-ng-b two-b)
    (trained-for ann-b icu-b) (trained-for bob-b maternity-b) (trained-for cara-b surgery-b) (trained-for dina-b icu-b)
    (trained-for eve-b maternity-b) (doctor-needed icu-b early-b) (doctor-needed icu-b night-b) (doctor-needed maternity-b early-b)
    (doctor-needed maternity-b night-b) (doctor-needed surgery-b late-b) (nurses-missing icu-b early-b two-b) (nurses-missing icu-b night-b one-b)
    (nurses-missing maternity-b early-b one-b) (nurses-missing maternity-b night-b one-b) (nurses-missing surgery-b late-b one-b) (nurses-missing surgery-b night-b one-b))
  (:goal (and (doctor-covered icu-a day-a) (doctor-covered icu-a night-a)
              (nurses-missing icu-a day-a zero-a) (nurses-missing icu-a night-a zero-a)
              (doctor-covered icu-b early-b) (doctor-covered icu-b night-b)
              (doctor-covered maternity-b early-b) (doctor-covered maternity-b night-b)
              (doctor-covered surgery-b late-b)
              (nurses-missing icu-b early-b zero-b) (nurses-missing icu-b night-b zero-b)
              (nurses-missing maternity-b early-b zero-b) (nurses-missing maternity-b night-b zero-b)
              (nurses-missing surgery-b late-b zero-b) (nurses-missing surgery-b night-b zero-b))))
