"""The REST API (FastAPI): the app and its settings, the endpoints (``routes``), request
and response schemas, the viewer's pages and the server that runs it (``t2w serve``)."""

# The modules callers use (from other packages, tests, bench/ and the docs); the rest are
# this package's own. Nothing is imported here: each module is imported where it is needed.
__all__ = [
    "app", "server", "settings", "routes", "schemas", "errors", "guard", "limits", "bundle",
    "viewer",
]
