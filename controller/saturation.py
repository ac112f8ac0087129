"""Sensors that saturate: a count read only up to a ceiling (issue 34.4).

A pit's hall sensor tells bead counts apart only up to the highest count it was calibrated for
(``Layout.sensing_max``); a pit holding more reads as that count. In play pits fill past that
(``python -m bench.beads``, ``docs/build/``), so the referee, which knows every count from the
game, compares such a channel as "at least": it sees a board as its sensors can show it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

Ceiling = Mapping[str, int]
"""Channels whose sensor reads no higher than a count, with that count: a reading of it means "that
many or more"."""

NO_CEILING: Ceiling = MappingProxyType({})  # read-only: a default shared by every table and move


def seen_changes(changes: dict[str, int], view: Mapping[str, int], ceiling: Ceiling) -> dict[str, int]:
    """``changes`` to ``view`` as the sensors show them: a count above its channel's ceiling reads
    as the ceiling, so a change between two counts at or above it is no change at all."""
    if not ceiling or ceiling.keys().isdisjoint(changes):
        return changes
    out = {}
    for c, v in changes.items():
        top = ceiling.get(c)
        if top is None:
            out[c] = v
        elif min(v, top) != min(view.get(c, 0), top):
            out[c] = min(v, top)
    return out
