"""Every public exception class of the package derives from ``Text2WorldError`` (one base a
caller can catch, as unified-planning's ``exceptions.py``), keeping its historical built-in base
where it had one. Private control-flow signals (``_Name``) are exempt."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import text2world
from text2world.errors import Text2WorldError

# Modules that do something on import (the CLI's __main__ runs the app; the forkserver preload
# imports the scoring stack into a server process)
SKIPPED = ("__main__", "_forkserver_preload")


def _exception_classes() -> list[type[BaseException]]:
    found = []
    for info in pkgutil.walk_packages(text2world.__path__, "text2world."):
        if info.name.rsplit(".", 1)[-1] in SKIPPED:
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, BaseException)
                    and value.__module__ == module.__name__ and not name.startswith("_")):
                found.append(value)
    return found


def test_every_public_exception_derives_from_text2world_error():
    classes = _exception_classes()
    assert len(classes) > 20  # the walk found the package's errors
    outside = sorted(f"{cls.__module__}.{cls.__qualname__}" for cls in classes
                     if not issubclass(cls, Text2WorldError))
    assert outside == [], f"exceptions outside Text2WorldError: {outside}"


def test_historical_bases_are_kept():
    from text2world.pddl.extract import NoDomainFound
    from text2world.planning.fast_downward import PlannerMissing
    from text2world.reports.compare import CompareError

    assert issubclass(NoDomainFound, ValueError) and issubclass(CompareError, ValueError)
    assert issubclass(PlannerMissing, RuntimeError)
