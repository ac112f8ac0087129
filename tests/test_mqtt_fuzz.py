"""Malformed and out-of-phase requests against a real game (Contigo) over a real Mosquitto: every one
is answered with an error that fits the response schema, the game does not change, the service
stays up. Three phases: the who-starts draw pending, a player to act, the game over (resigned)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from controller import schemas
from controller.localbroker import Broker
from controller.mqtt import MAX_REQUEST_BYTES
from controller.service import Service
from tests.support.mqttc import Listener
from tests.support.services import mqtt_service
from tests.support.waiting import wait_until

BASE = "arbitro/fz"


@pytest.fixture
def contigo(broker: Broker) -> Iterator[Service]:
    service = mqtt_service("contigo", "fz", broker.port, seed=4)
    yield service
    service.stop()


def snapshot(service: Service) -> tuple[Any, ...]:
    """Everything a request could change, once the loop's idle work is done (the move table a roll
    or a move left to build changes the state's targets when it is complete)."""
    wait_until(lambda: not service.read(lambda s: s.unready), "the loop's idle work")

    def read() -> tuple[Any, ...]:
        public = service.public_state()
        del public["seq"]
        s = service.session
        board = service.config.board
        return (s.game.name, s.match.state.to_text(), tuple(s.match.record.actions), tuple(s.match.record.keys),
                s.resigned, board.allow_takeback, board.chance, service.wiring.layout.game,
                json.dumps(public, sort_keys=True))
    taken: tuple[Any, ...] = service.call(read)
    return taken


def junk(rng: random.Random) -> object:
    return rng.choice([None, True, False, -1, 0, 2**70, 1.5, float("inf"), "", "x" * rng.randrange(1, 300),
                       [], [1, "a"], {}, {"k": [None]}, "\u0000\ud7ff\ufffd"])


def malformed(rng: random.Random, i: int) -> tuple[str, bytes]:
    """Requests that no phase may accept (whatever the game's state)."""
    kind = i % 16
    if kind == 0:  # not JSON, not UTF-8
        noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
        return rng.choice(["choose", "roll", "new_game"]), noise
    if kind == 1:  # too large
        return "choose", b'{"action": "' + b"a" * rng.randrange(MAX_REQUEST_BYTES, 3 * MAX_REQUEST_BYTES) + b'"}'
    if kind == 2:  # nested past any sane depth (within the size limit)
        return "configure", rng.choice([b"[" * 3000, b'{"a":' * 800, b"[" * 1500 + b"]" * 1500])
    if kind == 3:  # not an object
        value = junk(rng)
        return rng.choice(["undo", "roll", "state"]), json.dumps(value if not isinstance(value, dict) else [1]).encode()
    if kind == 4:  # unknown commands
        return rng.choice(["fly", "delete", "exec", "x" * 60, "Roll", "roll ", "new-game", "$SYS"]), b"{}"
    if kind == 5:  # unknown fields
        return rng.choice(["roll", "undo", "state", "choose", "configure"]), json.dumps({"extra": junk(rng)}).encode()
    if kind == 6:  # bad ids
        return "state", json.dumps({"id": rng.choice([[1], {"a": 1}, True, 1.5, "i" * 200])}).encode()
    if kind == 7:  # choose: wrong types, too long, no such action
        action = rng.choice([junk(rng), "a1" * rng.randrange(101, 600), "z9-z8", "b2-d2 now", ""])
        return "choose", json.dumps({"action": action}).encode()
    if kind == 8:  # choose without its argument
        return "choose", b"{}"
    if kind == 9:  # new_game: unknown games, wrong types
        return "new_game", json.dumps({"game": rng.choice(["chess", "", "CONTIGO", 5, None, "x" * 300])}).encode()
    if kind == 10:  # new_game: player counts and seeds out of range
        args = rng.choice([{"num_players": rng.choice([-5, 1, 3, 5, 100, 2**40, "2", 2.0, True])},
                           {"seed": rng.choice([-2, 2**63, 2**100, "1", 1.5])}])
        return "new_game", json.dumps(args).encode()
    if kind == 11:  # new_game: bad options
        options = rng.choice([{"game": "chess"}, {"win": 7}, {"turn_limit": -1}, {"nope": 1}, [1], "alignment",
                              {"spread_limit": "x" * 1000}])
        return "new_game", json.dumps({"options": options}).encode()
    if kind == 12:  # resign: no such player, wrong types
        return "resign", json.dumps({"player": rng.choice([-1, 2, 4, 99, "0", None, 0.0, True, [0]])}).encode()
    if kind == 13:  # configure: bad values
        args = rng.choice([{"chance": rng.choice(["never", "AUTO", 3, None])},
                           {"allow_takeback": rng.choice(["yes", 1, 0, None])}])
        return "configure", json.dumps(args).encode()
    if kind == 14:  # enter without a value, or with the wrong type
        return "enter", json.dumps(rng.choice([{}, {"value": junk(rng) if rng.random() < 0.5 else [1]}])).encode()
    return "undo", json.dumps({"steps": rng.randrange(1, 9)}).encode()


def out_of_phase(phase: str, rng: random.Random) -> tuple[str, bytes]:
    """Well-formed requests that the phase refuses."""
    if phase == "draw":  # the who-starts draw is pending: nobody may act, nothing to undo
        return _dump(rng.choice([("choose", {"action": rng.choice(["b2-d2", "a1-a2", "beads e-4>e-3 1"])}),
                                 ("undo", {}), ("enter", {"value": rng.choice(["start green", "7", 3, "start"])})]))
    if phase == "play":  # a player is to act: no die to roll or enter
        return _dump(rng.choice([("roll", {}), ("enter", {"value": rng.choice(["start red", "start blue", 1])}),
                                 ("choose", {"action": rng.choice(["a1-f6", "start red", "zz", "b2-b2"])})]))
    # the game is over: nothing but undo, configure, new_game and state
    return _dump(rng.choice([("roll", {}), ("enter", {"value": "start red"}), ("choose", {"action": "b2-d2"}),
                             ("resign", {"player": rng.randrange(2)})]))


def _dump(pair: tuple[str, object]) -> tuple[str, bytes]:
    return pair[0], json.dumps(pair[1]).encode()


def refuse_all(op: Listener, requests: list[tuple[str, bytes]]) -> None:
    check = schemas.validator("response")
    for command, payload in requests:
        answer = op.request(BASE, command, payload)
        assert answer["ok"] is False and answer["error"], (command, payload[:80], answer)
        check.validate(answer)


def test_fifteen_hundred_bad_requests_in_three_phases_are_refused_and_change_nothing(contigo: Service,
                                                                                     broker: Broker) -> None:
    service = contigo
    rng = random.Random(2024)
    op = Listener(broker.port, [f"{BASE}/events"])
    try:
        for phase, count in (("draw", 600), ("play", 600), ("over", 300)):
            if phase == "play":
                assert op.request(BASE, "roll", {})["ok"]
            if phase == "over":
                assert op.request(BASE, "choose", {"action": service.call(
                    lambda: service.session.state.action_to_text(service.session.state.legal_actions()[0]))})["ok"]
                assert op.request(BASE, "resign", {"player": 0})["ok"]
            before = snapshot(service)
            events = len(op.messages)
            requests = [malformed(rng, i) if i % 3 else out_of_phase(phase, rng) for i in range(count)]
            refuse_all(op, requests)
            assert service.running()
            assert snapshot(service) == before, phase
            assert op.request(BASE, "state", {})["ok"] is True
            assert len(op.messages) == events  # nothing happened: no event at all
        # Still a working referee: a new game on request.
        answer = op.request(BASE, "new_game", {"num_players": 2, "seed": 8})
        assert answer["ok"] and answer["result"] == {"game": "contigo", "seed": 8}
    finally:
        op.close()
