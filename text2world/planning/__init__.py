"""Planning PDDL problems: Fast Downward (the reference) and its on-disk plan cache."""

# The modules callers use (from other packages, tests, bench/ and the docs); the rest are
# this package's own. Nothing is imported here: each module is imported where it is needed.
__all__ = ["fast_downward", "front"]
