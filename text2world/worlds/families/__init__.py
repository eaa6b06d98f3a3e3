"""The structural families of generated worlds, by name (``FAMILIES``)."""

from __future__ import annotations

from text2world.worlds.families import (
    assembly,
    crafting,
    doors,
    machines,
    painting,
    pouring,
    scheduling,
    sorting,
    stacking,
    staffing,
    survey,
    transport,
)
from text2world.worlds.families.base import Family

__all__ = ["FAMILIES", "Family"]

FAMILIES: dict[str, Family] = {module.FAMILY.name: module.FAMILY for module in (
    transport, doors, stacking, machines, assembly, scheduling,
    sorting, staffing, painting, pouring,
    survey, crafting,
)}
