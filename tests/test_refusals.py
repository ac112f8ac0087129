"""Every refusal of every request carries a code and is said in the board's language; a fault of
arbitro's own is an internal error, logged with its traceback, never passed off as a refusal."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from controller.commands import COMMANDS
from controller.i18n import say
from controller.session import Session
from tests.test_session import session_for

WRONG: dict[type, Any] = {str: 12, int: "twelve", bool: "yes", dict: [1], list: "table"}


def bad_requests() -> list[tuple[str, dict[str, Any]]]:
    """Each command with each kind of bad argument: an unknown field, a missing one, each field of
    the wrong type, and each command where it cannot run (the game over, nothing pending)."""
    out: list[tuple[str, dict[str, Any]]] = [("no_such_command", {})]
    for name, command in COMMANDS.items():
        required = {k: "x" if str in f.types else 0 for k, f in command.fields.items() if f.required}
        out.append((name, {**required, "no_such_field": 1}))
        if required:
            out.append((name, {}))
        for key, spec in command.fields.items():
            out.append((name, {**required, key: WRONG[spec.types[0]]}))
    out += [("choose", {"action": "colour Q"}), ("resign", {"player": 7}), ("enter", {"value": "9"}),
            ("roll", {}), ("undo", {}), ("new_game", {"game": "chess"}), ("new_game", {"seats": ["phone"] * 5}),
            ("join", {"code": "not a code"}), ("play", {"seat": 0, "action": "x"})]
    return out


@pytest.mark.parametrize(("name", "args"), bad_requests())
def test_every_refusal_has_a_code_and_is_said_in_spanish(name: str, args: dict[str, Any]) -> None:
    s = session_for("jeocinco")
    outcome = s.request(name, args)
    assert outcome.answer is not None
    ok, _ = outcome.answer
    if ok:  # the one request of the list that this position takes is no refusal
        return
    refusal = outcome.refusal
    assert refusal is not None and refusal.code, (name, args, outcome.answer)
    spanish, english = say(refusal, "es"), say(refusal, "en")
    assert spanish and spanish != english, (refusal.code, spanish)
    assert "Traceback" not in spanish and "Error" not in spanish


def test_a_fault_in_a_handler_is_an_internal_error_logged_with_its_traceback(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    s = session_for("contigo")

    def broken(self: Session, **settings: Any) -> dict[str, Any]:
        raise KeyError("allow_takeback")

    monkeypatch.setattr(Session, "configure", broken)
    with caplog.at_level(logging.ERROR, logger="arbitro"):
        outcome = s.request("configure", {"allow_takeback": False})
    assert outcome.answer is not None and not outcome.answer[0]
    assert outcome.refusal is not None and outcome.refusal.code == "request.internal_error"
    assert "allow_takeback" not in outcome.answer[1]  # the fault's details go to the log, not to the sender
    assert any(r.exc_info and r.exc_info[0] is KeyError for r in caplog.records)
