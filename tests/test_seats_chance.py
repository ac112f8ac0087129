"""A computer player's chance steps follow ``board.chance`` as a person's do: rolled on the table's
roll button (gpiozero's mock pin) with ``button``, or a physical die's value entered with the
``enter`` request; only then does the computer decide (``auto`` rolls at once: ``tests/test_seats.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable

from controller.games import CHANCE
from controller.localbroker import Broker
from controller.session import Session
from tests.support.mqttc import Listener
from tests.support.table import Table

BOTS = ["bot:easy", "bot:easy"]


def carry_out(table: Table, view: dict[str, int]) -> None:
    """The hands make the board show ``view`` (what a die asks of the table, or a computer's move)."""
    sensed = table.service.read(lambda s: dict(s.sensed))
    table.hands.set_channels({c: v for c, v in view.items() if sensed.get(c, 0) != v})


def past(moves: int) -> Callable[[Session], tuple[str, ...]]:
    """The actions after the first ``moves`` (none yet: falsy, for `Table.wait`)."""
    return lambda s: tuple(s.match.public_log[moves:])


def undecided(moves: int) -> Callable[[Session], bool]:
    """No computer player is asked to decide, nor has decided, at ``moves``."""
    return lambda s: s.expected is None and s.asked != moves


def decided(moves: int) -> Callable[[Session], bool]:
    """The computer player asked at ``moves`` has decided (or its move left no trace and was taken)."""
    return lambda s: s.expected is not None or len(s.match.record.actions) != moves


def rolls_then_carries_out(table: Table, roll: Callable[[], None], turns: int) -> list[str]:
    """The computer players' game for ``turns`` chance steps: each waits for ``roll`` (nothing is
    decided before it), then every computer's move is carried out as the LEDs ask; the chance outcomes."""
    outcomes: list[str] = []
    while len(outcomes) < turns:
        table.idle()
        moves = table.moves
        if table.state.current_player == CHANCE:
            assert table.service.read(undecided(moves))  # nobody decides a die
            roll()
            table.wait(past(moves), "the die to be rolled")
            outcomes.append(table.service.read(past(moves))[0])
            carry_out(table, table.service.read(lambda s: s.referee.expected()))
            continue
        table.wait(decided(moves), "the computer's move")
        view = table.service.read(lambda s: s.expected_view() if s.expected is not None else None)
        if view is not None:
            carry_out(table, view)
            table.wait(past(moves), "the computer's move carried out")
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
