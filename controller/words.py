"""Values and events said in words, for the people who read the logs and the terminal.

``arbitro``'s log lines and command output never show a Python repr (``True``, ``[0, 1]``,
``{'game': 'alignment'}``): ``in_words`` says a value, ``event_line`` says an event.
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


def event_line(kind: str, data: Mapping[str, Any]) -> str:
    """An event as one log line: ``action b2-b4 (by board)``, ``sensor link down: no frame for
    3.0 s``, ``game over (winners 0; scores 12 and 3)``, ``refused: there is nothing to undo``."""
    rest = dict(data)
    head = f"sensor link {'up' if rest.pop('up', False) else 'down'}" if kind == "link" else kind.replace("_", " ")
    for key in ("action", "outcome"):  # what the event is about follows its name
        if key in rest:
            head += f" {in_words(rest.pop(key))}"
    for key in ("message", "reason"):
        if key in rest:
            head += f": {in_words(rest.pop(key))}"
    details = "; ".join(f"{key.replace('_', ' ')} {in_words(value)}" for key, value in rest.items())
    return f"{head} ({details})" if details else head
