(define (problem assembly-line-p02)
  (:domain assembly-line)
  (:objects
    bike1 bike2 bike3 - product
    frame-st wheel-st brake-st paint-st - station
    frame wheels brakes paint - component
    wheel-crate brake-crate1 brake-crate2 - crate
    c0 c1 c2 - count)
  (:init
    (one-more c0 c1) (one-more c1 c2)
    (waiting bike1) (waiting bike2) (waiting bike3)
    (line-start frame-st) (line-end paint-st)
    (next-station frame-st wheel-st) (next-station wheel-st brake-st)
    (next-station brake-st paint-st)
    (station-free frame-st) (station-free wheel-st)
    (station-free brake-st) (station-free paint-st)
    (fits frame-st frame) (fits wheel-st wheels)
    (fits brake-st brakes) (fits paint-st paint)
    (stock frame-st c2) (stock wheel-st c1) (stock brake-st c0) (stock paint-st c2)
    (crate-of wheel-crate wheels) (crate-full wheel-crate)
    (crate-of brake-crate1 brakes) (crate-full brake-crate1)
    (crate-of brake-crate2 brakes) (crate-full brake-crate2)
    (needs bike1 frame) (needs bike1 wheels) (needs bike1 brakes) (needs bike1 paint)
    (needs bike2 frame) (needs bike2 wheels) (needs bike2 paint)
    (needs bike3 brakes))
  (:goal (and (shipped bike1) (shipped bike2) (shipped bike3)
              (installed bike1 frame) (installed bike1 wheels)
              (installed bike1 brakes) (installed bike1 paint)
              (installed bike2 frame) (installed bike2 wheels) (installed bike2 paint)
              (installed bike3 brakes))))
