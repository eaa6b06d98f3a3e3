"""Contamination: n-gram overlap with the store, corpus reading and the model probe."""
