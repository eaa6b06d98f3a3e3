(define (problem assembly-line-p03)
  (:domain assembly-line)
  (:objects lamp-a - product
            base-st-a shade-st-a - station
            socket-a shade-a - component
            c0-a c1-a - count
            bike1-b bike2-b bike3-b - product
            frame-st-b wheel-st-b brake-st-b paint-st-b - station
            frame-b wheels-b brakes-b paint-b - component
            wheel-crate-b brake-crate1-b brake-crate2-b - crate
            c0-b c1-b c2-b - count)
  (:init
    (one-more c0-a c1-a) (waiting lamp-a) (line-start base-st-a) (line-end shade-st-a)
    (next-station base-st-a shade-st-a) (station-free base-st-a) (station-free shade-st-a) (fits base-st-a socket-a)
    (fits shade-st-a shade-a) (stock base-st-a c1-a) (stock shade-st-a c1-a) (needs lamp-a socket-a)
    (needs lamp-a shade-a) (one-more c0-b c1-b) (one-more c1-b c2-b) (waiting bike1-b)
    (waiting bike2-b) (waiting bike3-b) (line-start frame-st-b) (line-end paint-st-b)
    (next-station frame-st-b wheel-st-b) (next-station wheel-st-b brake-st-b) (next-station brake-st-b paint-st-b) (station-free frame-st-b)
    (station-free wheel-st-b) (station-free brake-st-b) (station-free paint-st-b) (fits frame-st-b frame-b)
    (fits wheel-st-b wheels-b) (fits brake-st-b brakes-b) (fits paint-st-b paint-b) (stock frame-st-b c2-b)
    (stock wheel-st-b c1-b) (stock brake-st-b c0-b) (stock paint-st-b c2-b) (crate-of wheel-crate-b wheels-b)
    (crate-full wheel-crate-b) (crate-of brake-crate1-b brakes-b) (crate-full brake-crate1-b) (crate-of brake-crate2-b brakes-b)
    (crate-full brake-crate2-b) (needs bike1-b frame-b) (needs bike1-b wheels-b) (needs bike1-b brakes-b)
    (needs bike1-b paint-b) (needs bike2-b frame-b) (needs bike2-b wheels-b) (needs bike2-b paint-b)
    (needs bike3-b brakes-b))
  (:goal (and (shipped lamp-a) (installed lamp-a socket-a) (installed lamp-a shade-a)
              (shipped bike1-b) (shipped bike2-b) (shipped bike3-b)
              (installed bike1-b frame-b) (installed bike1-b wheels-b)
              (installed bike1-b brakes-b) (installed bike1-b paint-b)
              (installed bike2-b frame-b) (installed bike2-b wheels-b) (installed bike2-b paint-b)
              (installed bike3-b brakes-b))))
