"""Planning PDDL problems: Fast Downward (the reference) and its on-disk plan cache."""
