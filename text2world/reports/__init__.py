"""Reports over finished runs: generation (Table 1), semantic, world-model, and what the viewer shows."""

# The modules callers use (from other packages, tests, bench/ and the docs); the rest are
# this package's own. Nothing is imported here: each module is imported where it is needed.
__all__ = [
    "generation", "semantic", "wm", "probe", "judge", "both_ways", "compare", "families",
    "protocols", "published", "scaling", "strata", "runview", "rendering",
]
