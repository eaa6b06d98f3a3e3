"""The tasks run by the engine: generation (Text2World's EC_k loop), world-model tasks, the contamination probe."""

__all__ = ["contamination", "generation", "judge", "page", "problem", "registry", "wm"]
