"""The store: datasets, the manifest, curation, lint, audit and necessity checks, token counts."""
