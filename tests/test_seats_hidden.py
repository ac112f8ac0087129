"""A computer player's hand is shown nowhere: through a whole Serpientes game of computer players at
the simulated table (``controller.demo`` plays it, their moves carried out by the simulated hands),
a subscriber to every topic never receives their cards, which the engine dealt them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from controller import demo
from controller.app import build_service
from controller.localbroker import Broker
from controller.service import Service
from tests.support.mqttc import Listener


def objects(value: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object inside ``value``."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from objects(v)
    elif isinstance(value, list):
        for v in value:
            yield from objects(v)


def test_a_computer_players_cards_reach_no_subscriber_through_a_whole_game(broker: Broker,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[Service] = []

    def keep(*args: Any, **kwargs: Any) -> Service:  # the real service, kept to read its engine afterwards
        service = build_service(*args, **kwargs)
        built.append(service)
        return service

    monkeypatch.setattr("controller.demo.build_service", keep)
    everything = Listener(broker.port, ["#"])
    try:
        final = demo.play_game("serpientes", broker=("127.0.0.1", broker.port), seed=8, players=3, seat=None,
                               pace=0, headless=True, max_actions=4000, board_id="hidden", bots="easy", language="en")
        assert final["over"] and {p["seat"] for p in final["players"]} == {"bot:easy"}
        everything.wait_for(lambda m: m[0] == "arbitro/hidden/state" and json.loads(m[1])["over"])
    finally:
        everything.close()
    match = built[0].session.match
    views = [state.private_view(p) for state in match.history for p in range(3)]
    assert any(v["hand"] for v in views), "the computer players never held a card"
    dealt = {json.dumps(v, sort_keys=True) for v in views}
    for topic, payload, *_ in everything.messages:
        if topic.startswith("arbitro/hidden/player/"):
            assert payload == b"", f"{topic} was told {payload[:200]!r}"  # a computer's seat: emptied, never filled
        elif payload.startswith((b"{", b"[")):
            for found in objects(json.loads(payload)):
                assert json.dumps(found, sort_keys=True) not in dealt, (topic, found)
                assert not {"hand", "sequence", "hint"} & set(found), (topic, found)
                assert not isinstance(found.get("choices"), list), (topic, found)  # a count of moves tells nothing
