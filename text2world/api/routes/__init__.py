"""The service's endpoints, one router per resource (``create_app`` includes them)."""

from text2world.api.routes import curves, published, runs, scoring, service, store

__all__ = ["ROUTERS"]

ROUTERS = (service.router, scoring.router, store.router, runs.router, published.router,
           curves.router)
