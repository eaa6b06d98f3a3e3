(define (problem gripper-p01)
  (:domain gripper)
  (:objects room-a room-b - room
            ball1 ball2 - ball
            left right - gripper)
  (:init (robot-at room-a) (free left) (free right)
         (ball-at ball1 room-a) (ball-at ball2 room-a))
  (:goal (and (ball-at ball1 room-b) (ball-at ball2 room-b))))
