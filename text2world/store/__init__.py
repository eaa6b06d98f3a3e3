"""The store: datasets, the manifest, curation, lint, audit and necessity checks, token counts."""

# The modules callers use (from other packages, tests, bench/ and the docs); the rest are
# this package's own. Nothing is imported here: each module is imported where it is needed.
__all__ = ["datasets", "manifest", "plans", "curation", "lint", "audit", "necessity", "tokens"]
