"""The structural families of generated worlds, by name (``FAMILIES``)."""

from __future__ import annotations

from text2world.worlds.families import (
    assembly,
    doors,
    machines,
    painting,
    scheduling,
    sorting,
    stacking,
    staffing,
    transport,
)
from text2world.worlds.families.base import Family

FAMILIES: dict[str, Family] = {module.FAMILY.name: module.FAMILY for module in (
    transport, doors, stacking, machines, assembly, scheduling,
    sorting, staffing, painting,
)}
