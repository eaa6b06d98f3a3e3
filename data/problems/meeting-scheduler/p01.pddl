(define (problem meeting-scheduler-p01)
  (:domain meeting-scheduler)
  (:objects standup - meeting
            blue-room - room
            nine ten - slot
            ana ben - person)
  (:init (fits standup blue-room)
         (invited ana standup) (invited ben standup)
         (chairs ana standup)
         (busy ben nine))
  (:goal (and (attending ana standup) (attending ben standup)
              (has-note-taker standup))))
