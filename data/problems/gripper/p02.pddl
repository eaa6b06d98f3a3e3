(define (problem gripper-p02)
  (:domain gripper)
  (:objects room-a room-b room-c - room
            ball1 ball2 ball3 ball4 ball5 - ball
            left right - gripper)
  (:init (robot-at room-a) (free left) (free right)
         (ball-at ball1 room-a) (ball-at ball2 room-a) (ball-at ball3 room-a)
         (ball-at ball4 room-b) (ball-at ball5 room-c))
  (:goal (and (ball-at ball1 room-b) (ball-at ball2 room-b) (ball-at ball3 room-c)
              (ball-at ball4 room-c) (ball-at ball5 room-a))))
