"""docs/mqtt.md stays true: it shows exactly the shipped schemas, every command, every event type
the service emits, and the deploy files it describes exist."""

from __future__ import annotations

import json
import re
from pathlib import Path

from controller import schemas
from controller.games.base import ANNOUNCEMENTS
from controller.mqtt import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "mqtt.md").read_text()


def test_the_doc_shows_exactly_the_shipped_schemas() -> None:
    shown = dict(re.findall(r"<!-- schema: (\w+) -->\n```json\n(.*?)\n```", DOC, flags=re.S))
    assert set(shown) == set(schemas.NAMES)
    for name, text in shown.items():
        assert json.loads(text) == schemas.load(name), name
        schemas.validator(name, "state" if name == "request" else None)  # each one compiles


def test_every_command_and_event_type_is_documented_and_has_a_schema() -> None:
    requests = schemas.load("request")["$defs"]
    assert set(requests) == set(COMMANDS)
    for command in COMMANDS:
        assert f"| `{command}` |" in DOC, command
    emitted = set()
    for path in (*sorted((ROOT / "controller" / "session").glob("*.py")), ROOT / "controller" / "service.py"):
        emitted |= set(re.findall(r'\.event\(\s*"(\w+)"', path.read_text()))
    emitted |= {"violation", "ambiguous", "setup"}  # emitted as event(verdict.kind, ...)
    emitted |= set(ANNOUNCEMENTS)  # the games' announcements, emitted after their move
    types = set(schemas.load("event")["properties"]["type"]["enum"])
    assert emitted == types
    for kind in types:
        assert f"| `{kind}` |" in DOC, kind


def test_the_deploy_files_the_doc_names_exist() -> None:
    for name in ("arbitro.conf", "acl", "README.md"):
        assert (ROOT / "deploy" / "mosquitto" / name).is_file()
    assert "deploy/mosquitto/" in DOC and "python -m bench.mqtt_boards" in DOC
