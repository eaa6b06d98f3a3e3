"""The library's exception base: every error text2world raises on purpose derives from
``Text2WorldError``, so a caller can catch them all (``except Text2WorldError``) and still
tell the concerns apart by subclass (``DatasetError``, ``RunError``, ``ScoringError``, ...).

The subclasses keep their historical built-in bases too (most are ``ValueError``), so code
that caught those still works."""

from __future__ import annotations


class Text2WorldError(Exception):
    """A clear error of text2world: bad input, an unusable run, a model that cannot be
    called. Its message says what and where."""
