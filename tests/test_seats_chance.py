"""A computer player's chance steps follow ``board.chance`` as a person's do: rolled on the table's
roll button (gpiozero's mock pin) with ``button``, or a physical die's value entered with the
``enter`` request; only then does the computer decide (``auto`` rolls at once: ``tests/test_seats.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable

from controller.games import CHANCE
from controller.localbroker import Broker
from tests.support.mqttc import Listener
from tests.support.table import Table

BOTS = ["bot:easy", "bot:easy"]


def rolls_then_carries_out(table: Table, roll: Callable[[], None], turns: int) -> list[str]:
    """The computer players' game for ``turns`` chance steps: each waits for ``roll`` (nothing is
    decided before it), then every computer's move is carried out as the LEDs ask; the chance outcomes."""
    outcomes = []
    while len(outcomes) < turns:
        table.idle()
        s = table.service.session
        if table.state.current_player == CHANCE:
            before = table.moves
            assert table.service.call(lambda: s.expected is None and s.asked != before)  # nobody decides for a die
            roll()
            table.wait(lambda s: len(s.match.record.actions) > before, "the die to be rolled")
            outcomes.append(table.service.call(lambda: s.match.public_log[before]))
            expected = table.service.call(s.referee.expected)  # what the die asks of the table, if anything
            table.hands.set_channels({c: v for c, v in expected.items() if table.service.call(lambda: s.sensed)
                                      .get(c, 0) != v})
            continue
        moves = table.moves
        table.wait(lambda s: s.expected is not None or len(s.match.record.actions) != moves, "the computer's move")
        view = table.service.call(lambda: s.expected_view() if s.expected is not None else None)
        if view is not None:
            table.hands.set_channels({c: v for c, v in view.items() if table.service.call(lambda: s.sensed)
                                      .get(c, 0) != v})
            table.wait(lambda s: len(s.match.record.actions) > moves, "the computer's move carried out")
    assert table.verdict.kind != "violation"
    return outcomes


def test_a_computers_die_is_rolled_on_the_roll_button() -> None:
    with Table("scriptorium", players=2, seats=BOTS, seed=4) as table:
        assert table.state.current_player == CHANCE
        rolled = rolls_then_carries_out(table, lambda: table.hands.press("roll"), 8)
        played = table.service.call(lambda: table.service.session.match.public_log)
        assert len(played) > len(rolled), played  # the computers played between the rolls


def test_a_computers_die_takes_the_value_entered(broker: Broker) -> None:
    with Table("scriptorium", players=2, seats=BOTS, seed=4, mqtt_port=broker.port) as table:
        base = f"{table.config.mqtt.base_topic}/{table.config.board.id}"
        op = Listener(broker.port, [f"{base}/events"])
        try:
            values: list[str] = []

            def enter() -> None:
                state = table.state
                value = sorted(state.action_to_text(a) for a, _ in state.chance_outcomes())[len(values) % 2]
                values.append(value)
                answer = op.request(base, "enter", {"value": value})
                assert answer["ok"], answer

            outcomes = rolls_then_carries_out(table, enter, 8)
            assert outcomes == values
            assert len(table.service.call(lambda: table.service.session.match.public_log)) > len(values)
            assert not [json.loads(p) for t, p, *_ in op.messages if json.loads(p)["type"] == "violation"]
        finally:
            op.close()
