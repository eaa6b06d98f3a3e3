"""The PDDL layer: the domain model, input bounds, validation, extraction from answers, seeded perturbations."""

# The modules callers use (from other packages, tests, bench/ and the docs); the rest are
# this package's own. Nothing is imported here: each module is imported where it is needed.
__all__ = [
    "model", "validation", "extract", "issues", "bounds", "normalise", "perturb",
    "tarski_cache", "tarski_lexer",
]
