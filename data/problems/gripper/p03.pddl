(define (problem gripper-p03)
  (:domain gripper)
  (:objects room-a room-b room-c room-d - room
            ball1 ball2 ball3 ball4 ball5 ball6 ball7 ball8 - ball
            left right - gripper)
  (:init (robot-at room-b) (free left) (free right)
         (ball-at ball1 room-a) (ball-at ball2 room-a) (ball-at ball3 room-a)
         (ball-at ball4 room-a) (ball-at ball5 room-b) (ball-at ball6 room-b)
         (ball-at ball7 room-c) (ball-at ball8 room-d))
  (:goal (and (ball-at ball1 room-d) (ball-at ball2 room-d) (ball-at ball3 room-c)
              (ball-at ball4 room-c) (ball-at ball5 room-a) (ball-at ball6 room-d)
              (ball-at ball7 room-a) (ball-at ball8 room-b))))
