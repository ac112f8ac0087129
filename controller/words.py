"""Values said in words, for the people who read the logs and the terminal.

``arbitro``'s operator log lines and command output never show a Python repr (``True``, ``[0, 1]``,
``{'game': 'alignment'}``): ``in_words`` says a value. (What happened at the table is logged in the
board's language: ``controller.teller``.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``; ``none`` for no items."""
    if not items:
        return "none"
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def in_words(value: Any) -> str:
    """A value as a person reads it: yes / no, none, a listing, ``key value, key value``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, Mapping):
        return ", ".join(f"{str(k).replace('_', ' ')} {in_words(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list | tuple):
        return listing([in_words(v) for v in value])
    return str(value)

