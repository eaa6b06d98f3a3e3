"""Scoring a generated domain against its gold: paper and canonical metrics, alignment, semantic scoring
and its diagnoses."""

# The modules callers use (from other packages, tests, bench/ and the docs); the rest are
# this package's own. Nothing is imported here: each module is imported where it is needed.
__all__ = [
    "metrics", "semantic", "semantic_record", "verdict", "diagnosis", "alignment",
    "problem_equivalence", "problem_graph", "caching", "mutants", "rewrites", "score_base",
    "score_domain",
]
