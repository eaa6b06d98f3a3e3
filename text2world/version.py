"""The package's version (re-exported as ``text2world.__version__``): here so that any layer
may read it without importing the public facade, ``text2world/__init__.py``."""

__all__ = ["__version__"]

__version__ = "0.1.0"
