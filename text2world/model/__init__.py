"""Model calls: the litellm client and its response cache, the offline reference models, credentials."""

# The modules callers use (from other packages, tests, bench/ and the docs); the rest are
# this package's own. Nothing is imported here: each module is imported where it is needed.
__all__ = ["client", "aliases", "cache", "credentials", "environment", "reference"]
