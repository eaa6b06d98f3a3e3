"""Contamination: n-gram overlap with the store, corpus reading and the model probe."""

__all__ = ["corpus", "intervals", "kind", "overlap", "page", "probe", "records", "task"]
