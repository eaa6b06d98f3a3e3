(define (problem weather-station-p03)
  (:domain weather-station)
  (:objects ana-a - technician
            depot-a summit-a - site
            thermo1-a - sensor
            thermo-kit-a - tool
            temperature-a - sensor-kind
            ana-b ben-b - technician
            depot-b valley-b ridge-b coast-b lighthouse-b - site
            thermo1-b anemo1-b rain1-b baro1-b - sensor
            thermo-kit-b wind-tunnel-kit-b rain-kit-b baro-kit-b - tool
            temperature-b wind-b rainfall-b pressure-b - sensor-kind)
  (:init
    (tech-at ana-a depot-a) (hands-free ana-a) (link depot-a summit-a) (link summit-a depot-a)
    (station-site summit-a) (sensor-at thermo1-a depot-a) (kind-of thermo1-a temperature-a) (tool-at thermo-kit-a depot-a)
    (calibrates thermo-kit-a temperature-a) (modem-online summit-a) (tech-at ana-b depot-b) (hands-free ana-b)
    (tech-at ben-b coast-b) (hands-free ben-b) (link depot-b valley-b) (link valley-b depot-b)
    (link valley-b ridge-b) (link ridge-b valley-b) (link depot-b coast-b) (link coast-b depot-b)
    (link coast-b lighthouse-b) (link lighthouse-b coast-b) (station-site ridge-b) (station-site lighthouse-b)
    (sensor-at thermo1-b depot-b) (kind-of thermo1-b temperature-b) (sensor-at anemo1-b depot-b) (kind-of anemo1-b wind-b)
    (sensor-at rain1-b coast-b) (kind-of rain1-b rainfall-b) (sensor-at baro1-b valley-b) (kind-of baro1-b pressure-b)
    (tool-at thermo-kit-b depot-b) (calibrates thermo-kit-b temperature-b) (tool-at wind-tunnel-kit-b depot-b) (calibrates wind-tunnel-kit-b wind-b)
    (tool-at rain-kit-b coast-b) (calibrates rain-kit-b rainfall-b) (tool-at baro-kit-b coast-b) (calibrates baro-kit-b pressure-b))
  (:goal (and (reported summit-a temperature-a)
              (reported ridge-b temperature-b) (reported ridge-b wind-b)
              (reported lighthouse-b rainfall-b))))
