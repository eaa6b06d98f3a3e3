(define (problem weather-station-p01)
  (:domain weather-station)
  (:objects
    ana - technician
    depot summit - site
    thermo1 - sensor
    thermo-kit - tool
    temperature - sensor-kind)
  (:init
    (tech-at ana depot) (hands-free ana)
    (link depot summit) (link summit depot)
    (station-site summit)
    (sensor-at thermo1 depot) (kind-of thermo1 temperature)
    (tool-at thermo-kit depot) (calibrates thermo-kit temperature)
    (modem-online summit))
  (:goal (reported summit temperature)))
