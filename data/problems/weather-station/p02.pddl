(define (problem weather-station-p02)
  (:domain weather-station)
  (:objects
    ana ben - technician
    depot valley ridge coast lighthouse - site
    thermo1 anemo1 rain1 baro1 - sensor
    thermo-kit wind-tunnel-kit rain-kit baro-kit - tool
    temperature wind rainfall pressure - sensor-kind)
  (:init
    (tech-at ana depot) (hands-free ana)
    (tech-at ben coast) (hands-free ben)
    (link depot valley) (link valley depot)
    (link valley ridge) (link ridge valley)
    (link depot coast) (link coast depot)
    (link coast lighthouse) (link lighthouse coast)
    (station-site ridge) (station-site lighthouse)
    (sensor-at thermo1 depot) (kind-of thermo1 temperature)
    (sensor-at anemo1 depot) (kind-of anemo1 wind)
    (sensor-at rain1 coast) (kind-of rain1 rainfall)
    (sensor-at baro1 valley) (kind-of baro1 pressure)
    (tool-at thermo-kit depot) (calibrates thermo-kit temperature)
    (tool-at wind-tunnel-kit depot) (calibrates wind-tunnel-kit wind)
    (tool-at rain-kit coast) (calibrates rain-kit rainfall)
    (tool-at baro-kit coast) (calibrates baro-kit pressure))
  (:goal (and (reported ridge temperature) (reported ridge wind)
              (reported lighthouse rainfall))))
