(define (problem warehouse-forklift-p01)
  (:domain warehouse-forklift)
  (:objects lifter - forklift
            crate - pallet
            bay aisle1 - place
            rack1 - shelf
            gate1 - dock)
  (:init (forklift-at lifter bay) (forks-empty lifter) (forks-lowered lifter)
         (aisle bay aisle1) (aisle aisle1 bay)
         (storage-at gate1 bay) (storage-at rack1 aisle1)
         (pallet-in crate gate1) (vacant rack1))
  (:goal (and (pallet-in crate rack1) (forks-lowered lifter))))
