(define (problem switch-doors-p01)
  (:domain switch-doors)
  (:objects hall vault - room
            iron-door - door
            red-lever - lever
            ruby - gem)
  (:init
    (in hall)
    (connects iron-door hall vault) (connects iron-door vault hall)
    (lever-in red-lever hall)
    (opens-when-up red-lever iron-door)
    (gem-in ruby vault))
  (:goal (and (holding ruby) (in hall))))
