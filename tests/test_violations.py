"""What the referee does with boards that show no legal move: violations named in a player's words,
LEDs blinking red on the differing channels, the game waiting until the board is put right."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from controller.games import CHANCE, ChannelKind, State
from controller.games.base import Action
from controller.ledview import RED, TURN
from controller.referee import shortest_turn
from hardware.leds import RGB
from tests.support.table import Table


def advance_until(table: Table, rng: random.Random, wanted: Callable[[State], Any],
                  limit: int = 400) -> tuple[State, Any]:
    """Play random legal actions at the table until ``wanted(state)`` gives something."""
    for _ in range(limit):
        state = table.state
        found = wanted(state) if state.current_player != CHANCE else None
        if found:
            table.idle()
            return state, found
        table.play(rng.choice(state.legal_actions()))
    raise AssertionError("no suitable position reached")


def changes(state: State, action: Action) -> dict[str, int]:
    before, after = state.physical_view(), state.apply(action).physical_view()
    return {c: v for c, v in after.items() if before[c] != v}


def expect_violation(table: Table, words: str, moves: int) -> None:
    table.idle()
    verdict = table.verdict
    assert verdict.kind == "violation", verdict
    assert words in verdict.message, verdict.message
    assert table.moves == moves, "a violation must not change the game"
    want = {i for c in verdict.channels for i in table.layout.leds_of[c]}
    assert want, verdict
    status = set(table.layout.status_leds)

    def red(frame: tuple[RGB, ...] | None) -> set[int]:
        return {i for i, c in enumerate(frame or ()) if c == RED} - status

    # The differing channels blink: red in one phase of the blink (and nothing else red), dark in the other.
    table.wait(lambda service: red(service.strip.last) == want, f"the LEDs of {verdict.channels} red", loop=True)
    table.wait(lambda service: not red(service.strip.last), "the dark phase of the blink", loop=True)
    assert table.frame()[table.layout.status_leds[2]] == RED  # the status bar says: something is wrong


def put_right_and_play_on(table: Table, undo: dict[str, int], state: State, action: Action) -> None:
    moves = table.moves
    table.hands.set_channels(undo)
    table.idle()
    assert table.verdict.kind == "in_sync"
    table.play(action)
    assert table.moves > moves


def pawn_move(state: State) -> tuple[Action, str, str] | None:
    """A straight pawn move, and a square on its line it may not reach (the wrong distance)."""
    legal = {state.action_to_text(a): a for a in state.legal_actions()}
    for text, action in legal.items():
        if "-" not in text or text.startswith("beads"):
            continue
        frm, to = text.split("-")
        if frm[0] == to[0]:
            line = [f"{frm[0]}{r}" for r in range(1, 7)]
        elif frm[1] == to[1]:
            line = [f"{f}{frm[1]}" for f in "abcdef"]
        else:
            continue
        view = state.physical_view()
        for sq in line:
            if sq not in (frm, to) and view[f"sq:{sq}"] == 0 and f"{frm}-{sq}" not in legal:
                return action, frm, sq
    return None


def test_a_pawn_moved_the_wrong_distance_and_a_piece_of_the_wrong_player() -> None:
    rng = random.Random(2)
    with Table("contigo", seed=2) as table:
        state, (action, frm, wrong) = advance_until(table, rng, pawn_move)
        moves = table.moves
        code = state.physical_view()[f"sq:{frm}"]
        table.hands.set_channels({f"sq:{frm}": 0, f"sq:{wrong}": code})
        expect_violation(table, "not a legal move", moves)
        table.hands.set_channels({f"sq:{wrong}": 0, f"sq:{frm}": code})
        table.idle()
        assert table.verdict.kind == "in_sync"
        # The right square, but another player's piece put there.
        target = {c: v for c, v in changes(state, action).items() if v}
        (square, _), = target.items()
        other = 1 + 2 * (1 - state.current_player)
        table.hands.set_channels({f"sq:{frm}": 0, square: other})
        expect_violation(table, "wrong one for this move", moves)
        table.hands.set_channels({square: 0, f"sq:{frm}": code})
        table.idle()
        table.play(action)
        assert table.moves == moves + 1


def test_a_stick_placed_where_the_card_does_not_lead() -> None:
    rng = random.Random(4)

    def step(state: State) -> Action | None:
        for action in state.legal_actions():
            if any(c.startswith("edge:") and v for c, v in changes(state, action).items()):
                return action
        return None

    with Table("serpientes", seed=4) as table:
        state, action = advance_until(table, rng, step)
        moves = table.moves
        view = state.physical_view()
        right = {c for c, v in changes(state, action).items() if v}
        wrong = next(c for c in sorted(view) if c.startswith("edge:") and view[c] == 0 and c not in right)
        table.hands.set_channels({wrong: 1})
        expect_violation(table, "should not be at", moves)
        put_right_and_play_on(table, {wrong: 0}, state, action)


def test_a_ring_turned_the_wrong_way_or_too_far() -> None:
    rng = random.Random(3)

    def turn(state: State) -> Action | None:
        for action in state.legal_actions():
            ch = changes(state, action)
            if len(ch) == 1 and next(iter(ch)).startswith("enc:"):
                return action
        return None

    with Table("scriptorium", seed=3) as table:
        state, action = advance_until(table, rng, turn)
        moves = table.moves
        (channel, target), = changes(state, action).items()
        start = state.physical_view()[channel]
        spaces = (target - start) % 12
        assert table.service.session.kinds[channel] == ChannelKind.OFFSET
        # The ring's LEDs ask for the turn: as many as spaces to go, from the side it turns to.
        ring = table.layout.leds_of[channel]
        lit = [i for i in ring if table.frame()[i] == TURN]
        turning = shortest_turn(start, target, 12)
        assert lit == (ring[:turning] if turning > 0 else ring[12 + turning:]) and len(lit) == abs(turning) > 0
        wrong_way = (start - spaces) % 12
        table.hands.turn(channel, wrong_way)
        expect_violation(table, "wrong direction or wrong number of spaces", moves)
        table.hands.turn(channel, start)
        table.idle()
        assert table.verdict.kind == "in_sync"
        table.hands.turn(channel, (target + 1) % 12)  # one space too far
        expect_violation(table, "wrong direction or wrong number of spaces", moves)
        table.hands.turn(channel, target)
        table.wait(lambda s: len(s.match.record.actions) > moves, "the turn to be taken")


def test_a_chattering_sensor_yields_no_action_and_a_slid_piece_one_action() -> None:
    rng = random.Random(6)
    with Table("contigo", seed=6) as table:
        state, (action, frm, _) = advance_until(table, rng, pawn_move)
        moves = table.moves
        target = next(c for c, v in changes(state, action).items() if v)
        code = state.physical_view()[f"sq:{frm}"]
        sensor = table.layout.sensor_of[target]
        end = time.monotonic() + 0.2
        value = code
        while time.monotonic() < end:  # a contact bouncing every 2-5 ms for 200 ms
            table.sim.set(sensor, value)
            value = code - value
            time.sleep(0.003)  # input timing (the bounce rate), not a wait
        table.sim.set(sensor, 0)
        table.idle()
        assert table.moves == moves and table.verdict.kind == "in_sync"
        # Slide the pawn square by square over three squares to its target: one action, at the target.
        line = _squares_between(frm, target.split(":")[1])
        table.sim.set(table.layout.sensor_of[f"sq:{frm}"], 0)
        for sq in line:
            table.sim.set(table.layout.sensor_of[f"sq:{sq}"], code)
            time.sleep(0.008)  # input timing (the pawn crossing a square), not a wait
            table.sim.set(table.layout.sensor_of[f"sq:{sq}"], 0)
        table.sim.set(sensor, code)
        table.wait(lambda s: len(s.match.record.actions) > moves, "the slid move")
        table.idle()
        assert table.moves == moves + 1
        assert table.service.read(lambda s: s.match.record.actions[-1]) == state.action_to_text(action)


def _squares_between(a: str, b: str) -> list[str]:
    files = "abcdef"
    fa, ra, fb, rb = files.index(a[0]), int(a[1]), files.index(b[0]), int(b[1])
    n = max(abs(fb - fa), abs(rb - ra))
    df, dr = (fb - fa) // n, (rb - ra) // n
    return [f"{files[fa + i * df]}{ra + i * dr}" for i in range(1, n)]


def test_a_piece_in_an_illegal_slot() -> None:
    rng = random.Random(8)

    def placement(state: State) -> Action | None:
        return next((a for a in state.legal_actions() if state.action_to_text(a).startswith("place ")), None)

    with Table("jeocinco", seed=8) as table:
        state, action = advance_until(table, rng, placement)
        moves = table.moves
        view = state.physical_view()
        legal_slots = {c for a in state.legal_actions() for c, v in changes(state, a).items() if v}
        illegal = next(c for c in sorted(view) if c.startswith("slot:") and not view[c] and c not in legal_slots)
        table.hands.set_channels({illegal: 1})
        expect_violation(table, "should not be at", moves)
        put_right_and_play_on(table, {illegal: 0}, state, action)
