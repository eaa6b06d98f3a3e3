"""The ``t2w`` command line: thin commands over the library, one file per command group."""

from text2world.cli.main import app

__all__ = ["app"]
