(define (problem warehouse-forklift-p03)
  (:domain warehouse-forklift)
  (:objects lifter hauler - forklift
            crate-a crate-b crate-c crate-d - pallet
            bay aisle1 aisle2 aisle3 - place
            rack1 rack2 rack3 rack4 - shelf
            gate1 gate2 - dock)
  (:init (forklift-at lifter bay) (forks-empty lifter) (forks-lowered lifter)
         (forklift-at hauler aisle3) (forks-empty hauler) (forks-raised hauler)
         (aisle bay aisle1) (aisle aisle1 bay) (aisle aisle1 aisle2) (aisle aisle2 aisle1)
         (aisle aisle2 aisle3) (aisle aisle3 aisle2)
         (storage-at gate1 bay) (storage-at gate2 bay)
         (storage-at rack1 aisle1) (storage-at rack2 aisle2) (storage-at rack3 aisle3)
         (storage-at rack4 aisle3)
         (pallet-in crate-a rack3) (pallet-in crate-b gate1) (pallet-in crate-c rack1)
         (pallet-in crate-d gate2) (vacant rack2) (vacant rack4))
  (:goal (and (pallet-in crate-a gate1) (pallet-in crate-b rack3)
              (pallet-in crate-c rack4) (pallet-in crate-d rack1))))
