(define (problem warehouse-forklift-p02)
  (:domain warehouse-forklift)
  (:objects lifter - forklift
            crate-a crate-b - pallet
            bay aisle1 aisle2 - place
            rack1 rack2 rack3 - shelf
            gate1 gate2 - dock)
  (:init (forklift-at lifter aisle1) (forks-empty lifter) (forks-lowered lifter)
         (aisle bay aisle1) (aisle aisle1 bay) (aisle aisle1 aisle2) (aisle aisle2 aisle1)
         (storage-at gate1 bay) (storage-at gate2 bay)
         (storage-at rack1 aisle1) (storage-at rack2 aisle2) (storage-at rack3 aisle2)
         (pallet-in crate-a rack2) (pallet-in crate-b gate1)
         (vacant rack1) (vacant rack3) (vacant gate2))
  (:goal (and (pallet-in crate-a gate2) (pallet-in crate-b rack3))))
