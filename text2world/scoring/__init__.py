"""Scoring a generated domain against its gold: paper and canonical metrics, alignment, semantic scoring
and its diagnoses."""
