"""JSON Schemas (draft 2020-12) of every MQTT payload: one file per payload kind, shipped as package
data, shown in ``docs/mqtt.md`` and validated against by the tests.

``load(name)`` is the schema as a dict; ``validator(name, command)`` a ready ``jsonschema``
validator (``jsonschema`` and ``referencing`` are test dependencies, imported only here);
``payload_kind(base, topic)`` names the schema of a message on one of the board's topics.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

NAMES = ("status", "state", "event", "recent", "info", "player", "request", "response", "discovery")


@cache
def _text(name: str) -> str:
    if name not in NAMES:
        raise KeyError(f"no schema {name!r}; schemas: {', '.join(NAMES)}")
    return resources.files(__package__).joinpath(f"{name}.json").read_text()


def load(name: str) -> dict[str, Any]:
    """The schema ``name`` (a fresh copy)."""
    schema: dict[str, Any] = json.loads(_text(name))
    return schema


@cache
@cache
def validator(name: str, command: str | None = None) -> Any:
    """A ``jsonschema`` validator for payload kind ``name``; for ``request``, ``command`` picks the
    command's schema (``$defs/<command>``). Cross-file ``$ref`` (response -> state) resolve. Made
    once per kind: a validator is reusable, and making one reads and registers every schema."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry = Registry().with_resources((load(n)["$id"], Resource.from_contents(load(n))) for n in NAMES)
    schema = load(name)
    if name == "request":
        if command not in schema["$defs"]:
            raise KeyError(f"no request schema for command {command!r}")
        schema = {"$schema": schema["$schema"], "$ref": f"{schema['$id']}#/$defs/{command}"}
    return Draft202012Validator(schema, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)


def payload_kind(base: str, topic: str) -> tuple[str, str | None] | None:
    """(schema name, command or None) for a message on ``topic`` under ``base`` (``arbitro/<board>``),
    or None for a topic that is not the board's."""
    if not topic.startswith(base + "/"):
        return None
    rest = topic[len(base) + 1:]
    if rest in ("status", "state", "info"):
        return rest, None
    if rest == "events":
        return "event", None
    if rest == "events/recent":
        return "recent", None
    if rest.startswith("player/"):
        return "player", None
    if rest.startswith("request/"):
        return "request", rest.split("/", 1)[1]
    if rest.startswith("response/"):
        return "response", None
    return None


def check(base: str, topic: str, payload: bytes) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``payload`` on ``topic`` fits its schema."""
    kind = payload_kind(base, topic)
    if kind is None:
        raise KeyError(f"{topic} is not one of {base}'s topics")
    name, command = kind
    if name == "player" and not payload:
        return  # a seat the game has not got: its retained topic emptied
    value: Any = payload.decode() if name == "status" else json.loads(payload)
    validator(name, command).validate(value)
