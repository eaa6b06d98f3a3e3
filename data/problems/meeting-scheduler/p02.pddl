(define (problem meeting-scheduler-p02)
  (:domain meeting-scheduler)
  (:objects review planning retro - meeting
            blue-room green-room - room
            nine ten eleven - slot
            ana ben cleo dev eli - person)
  (:init (fits review blue-room) (fits review green-room)
         (fits planning green-room)
         (fits retro blue-room)
         (invited ana review) (invited ben review) (invited cleo review)
         (invited ana planning) (invited dev planning) (invited eli planning)
         (invited ben retro) (invited dev retro) (invited eli retro)
         (chairs ana review) (chairs dev planning) (chairs ben retro)
         (busy cleo nine) (busy eli ten) (busy ana eleven)
         (room-taken blue-room nine))
  (:goal (and (attending ana review) (attending ben review) (attending cleo review)
              (attending ana planning) (attending dev planning) (attending eli planning)
              (attending ben retro) (attending dev retro) (attending eli retro)
              (has-note-taker review) (has-note-taker planning) (has-note-taker retro))))
