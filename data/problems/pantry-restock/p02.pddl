(define (problem pantry-restock-p02)
  (:domain pantry-restock)
  (:objects storeroom aisle1 aisle2 office - place
            pasta-shelf flour-shelf beans-shelf tea-shelf - shelf
            pasta-pack flour-bag beans-tin1 beans-tin2 tea-box - unit
            pasta flour beans tea - kind
            t0 t1 t2 - count)
  (:init (stocker-at office) (office-at office) (bin-at storeroom)
         (link office storeroom) (link storeroom office)
         (link storeroom aisle1) (link aisle1 storeroom)
         (link aisle1 aisle2) (link aisle2 aisle1)
         (shelf-at pasta-shelf aisle1) (shelf-for pasta-shelf pasta) (shelf-empty pasta-shelf)
         (shelf-at flour-shelf aisle1) (shelf-for flour-shelf flour) (shelf-stale flour-shelf)
         (shelf-at beans-shelf aisle2) (shelf-for beans-shelf beans) (shelf-empty beans-shelf)
         (shelf-at tea-shelf aisle2) (shelf-for tea-shelf tea) (stocked tea-shelf)
         (unit-at pasta-pack storeroom) (kind-of pasta-pack pasta)
         (unit-at flour-bag storeroom) (kind-of flour-bag flour)
         (unit-at beans-tin1 storeroom) (kind-of beans-tin1 beans)
         (unit-at beans-tin2 storeroom) (kind-of beans-tin2 beans)
         (unit-at tea-box storeroom) (kind-of tea-box tea)
         (bag-empty) (trolley-load t0) (count-step t0 t1) (count-step t1 t2))
  (:goal (inventory-closed)))
