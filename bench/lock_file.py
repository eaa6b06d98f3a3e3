"""The pins of ``requirements/lock.txt``, read in one place: ``bench/dependency_resolve.py``
compares today's resolution with them and ``tests/project/test_dependencies.py`` checks them
against pyproject's ranges (it loads this file by its path: tests do not import bench/ as a
package). Standard library only, so either side can load it anywhere."""

from __future__ import annotations

import re
from pathlib import Path

LOCK = Path(__file__).resolve().parent.parent / "requirements" / "lock.txt"

# ``name==version`` or ``name[extra,...]==version``, up to a space or an environment marker
_PIN = re.compile(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s;]+)")


def canonical_name(name: str) -> str:
    """A distribution name as PEP 503 compares it (``Foo_bar.baz`` -> ``foo-bar-baz``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_pins(lock: Path = LOCK) -> dict[str, str]:
    """Every pinned distribution of the lock by its canonical name -> its version."""
    pins = {}
    for line in lock.read_text().splitlines():
        match = _PIN.match(line)
        if match:
            pins[canonical_name(match.group(1))] = match.group(2)
    return pins
