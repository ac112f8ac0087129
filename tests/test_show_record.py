"""A record shown at the table (issue 38.4, docs/records.md "On the board"): the ``show`` request
sets up a finished game of the journal at a move on the simulated board, the LEDs lighting white
every place that differs and each going out once it is right, piece by piece; then each of the
record's moves is lit for the table to carry out, and the table steps through three of them."""

from __future__ import annotations

import queue
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.games import CHANCE, ChannelKind
from controller.ledview import WHITE, game_colours, player_colour
from controller.mqtt import Command
from controller.session import Session
from tests.support.table import Table

MOVE = 6  # the position set up: after this many actions


def request(table: Table, name: str, args: dict[str, Any]) -> tuple[bool, Any]:
    """A request as MQTT hands it to the service's loop (journalled and told like any other)."""
    answers: queue.Queue[tuple[bool, Any]] = queue.Queue()
    table.service.post(Command(name, args, lambda ok, result: answers.put((ok, result)), to_operator=True))
    return answers.get(timeout=10)


def lit(table: Table, channel: str) -> set[tuple[int, int, int]]:
    """The colours the LEDs of ``channel`` show now."""
    frame = table.frame()
    return {frame[i] for i in table.service.wiring.layout.leds_of.get(channel, ())}


def lit_at(moves: int) -> Callable[[Session], bool]:
    """The record's move after ``moves`` actions is lit for the table to carry out."""
    return lambda s: s.expected is not None and s.expected.moves == moves


def set_up_piece_by_piece(table: Table) -> dict[str, ChannelKind]:
    """The table sets up the position the board's game asks for, guided by the LEDs: every place that
    differs lit white, each going out once it is right, until the board is in sync; the channels' kinds."""
    table.wait(lambda s: s.verdict.kind == "setup", "the board to be set up")
    expected = table.service.read(lambda s: s.referee.expected())
    kinds: dict[str, ChannelKind] = table.service.read(lambda s: s.kinds)
    sensed = table.service.read(lambda s: dict(s.sensed))
    differ = sorted(c for c, v in expected.items() if sensed.get(c, 0) != v and kinds[c] != ChannelKind.OFFSET)
    assert len(differ) >= 4, differ
    for channel in differ:
        assert WHITE in lit(table, channel), channel  # every place to set up lit white
    for n, channel in enumerate(differ):  # piece by piece: each goes out once it is right
        table.hands.set_channels({channel: expected[channel]})
        table.idle()
        assert WHITE not in lit(table, channel), channel
        for other in differ[n + 1:]:
            assert WHITE in lit(table, other), other
    table.wait(lambda s: s.verdict.kind == "in_sync" and not s.setup_channels, "the position to be set up")
    return kinds


def test_a_finished_game_is_set_up_at_a_move_guided_by_the_leds_and_stepped_through(tmp_path: Path) -> None:
    rng = random.Random(4)
    with Table("contigo", seed=5, journal=str(tmp_path / "j.sqlite")) as table:
        for _ in range(MOVE + 10):
            table.play(rng.choice(table.state.legal_actions()))
        table.idle()
        assert request(table, "resign", {"player": 0})[0]
        table.idle()
        actions = table.service.read(lambda s: list(s.match.record.actions))
        assert not request(table, "show", {"game": 9})[0]  # no such game: refused, nothing changes

        ok, answer = request(table, "show", {"game": 1, "move": MOVE})
        assert ok and answer == {"game": "contigo", "moves": len(actions), "from": MOVE}, answer
        kinds = set_up_piece_by_piece(table)  # ten moves to take back: pieces to lift and put back

        for step in range(3):  # the record's moves lit one by one, the table carrying each out
            n = MOVE + step
            table.wait(lit_at(n), f"move {n + 1} to be lit")
            state = table.state
            assert state.current_player != CHANCE
            shown = table.service.read(lambda s: s.expected.text if s.expected is not None else None)
            assert shown == actions[n]
            action = state.action_from_text(shown)
            before, after = state.physical_view(), state.apply(action).physical_view()
            to = [c for c, v in after.items() if v > before[c] and kinds[c] != ChannelKind.OFFSET]  # to fill
            colour = player_colour(state.current_player, game_colours(state))
            assert to and all(colour in lit(table, c) for c in to), (shown, to)  # where to put it, in his colour
            table.play(action)
            assert table.service.read(lambda s: s.match.record.actions) == actions[:n + 1]
        table.wait(lit_at(MOVE + 3), "the fourth move to be lit")
