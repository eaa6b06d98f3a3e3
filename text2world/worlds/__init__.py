"""Fresh worlds on demand: verified domains, descriptions, problems and plans generated from
semantic plans of structural families (``t2w worlds generate``); see docs/tasks/worlds.md."""

# The modules callers use (from other packages, tests, bench/ and the docs); the rest are
# this package's own. Nothing is imported here: each module is imported where it is needed.
__all__ = ["generate", "families", "plan", "prose", "verify", "canonical", "novelty"]
