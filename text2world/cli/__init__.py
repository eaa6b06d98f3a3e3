"""The ``t2w`` command line: thin commands over the library, one file per command group."""

from .main import app

__all__ = ["app"]
