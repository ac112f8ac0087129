"""Authority belongs to the action's owner (``controller.seats``): a Jeocinco bridge laid out of turn
is its owner's action. Laid at the table for a player who sits away (a phone, a computer, the other
board), it is refused and spends nothing; a table player's own bridge is taken whoever is to act.
What the rules ask the table to set up is a set-up before anyone's turn."""

from __future__ import annotations

import random
from functools import cache

import pytest

from controller.games import CHANCE
from controller.games.chance import seed_secret
from controller.games.record import ChanceKey, Match, Record
from controller.remote import JoinCode, Sync, Wire, digest
from controller.session import Outcome, Session
from tests.test_seats import decide
from tests.test_session import session_for, show, verdict_of

SEED = 3


@cache
def bridge_position(seed: int = SEED) -> tuple[tuple[str, ...], int, int, str]:
    """A 2-player Jeocinco game played at random up to the first position where the player not to
    act may lay a bridge out of turn: its actions, the player to act, the bridge's owner, the bridge."""
    match = Match(Record("jeocinco", {}, 2, [ChanceKey.of(seed_secret(seed))]))
    rng = random.Random(seed)
    while not match.state.is_terminal():
        state = match.state
        if state.current_player == CHANCE:
            match.resolve_chance()
            continue
        legal = state.legal_actions()
        others = [a for a in legal if state.player_of(a) != state.current_player]
        if others:
            return (tuple(match.record.actions), state.current_player, state.player_of(others[0]),
                    state.action_to_text(others[0]))
        match.apply(rng.choice(legal))
    raise AssertionError(f"seed {seed}: no bridge out of turn in a whole game")


def seated(owner_seat: str, actor_seat: str) -> tuple[Session, int, int, str, Outcome]:
    """The bridge position on a board, the bridge's owner and the player to act in those seats,
    the board set up as the game stands."""
    actions, actor, owner, bridge = bridge_position()
    seats = ["table", "table"]
    seats[owner], seats[actor] = owner_seat, actor_seat
    s = session_for("jeocinco", chance="auto")
    s.resume(Record("jeocinco", s.match.record.options, 2, [ChanceKey.of(seed_secret(SEED))], list(actions),
                    seats=seats))
    outcome = put(s, s.referee.expected())
    assert verdict_of(outcome) == "in_sync"
    return s, actor, owner, bridge, outcome


def put(s: Session, view: dict[str, int]) -> Outcome:
    """The hands make the board ``view``; it settles and is judged."""
    show(s, view)
    return s.judge()


def with_bridge(s: Session, bridge: str) -> dict[str, int]:
    state = s.state
    return state.apply(state.action_from_text(bridge)).physical_view()


@pytest.mark.parametrize("away", ["phone", "bot:easy"])
def test_a_bridge_of_a_player_who_sits_away_laid_at_the_table_is_refused_and_spends_nothing(away: str) -> None:
    s, actor, _owner, bridge, _ = seated(away, "table")
    before = s.state.to_text()
    judged = put(s, with_bridge(s, bridge))
    assert verdict_of(judged) == "violation", s.verdict
    assert s.state.to_text() == before and not any(e["type"] == "action" for e in judged.events)
    assert judged.public is not None and judged.public["violation"]["channels"]
    assert s.state.current_player == actor


@pytest.mark.parametrize("away", ["phone", "bot:easy", "remote"])
def test_a_table_players_own_bridge_is_taken_while_a_seat_away_is_to_act(away: str) -> None:
    s, actor, owner, bridge, _ = seated("table", away)
    if away == "remote":
        s.peer = "other"
    judged = put(s, with_bridge(s, bridge))
    assert verdict_of(judged) == "applied", s.verdict
    actions = [e for e in judged.events if e["type"] == "action"]
    assert [(e["action"], e["player"], e["by"]) for e in actions] == [(bridge, owner, "board")]
    assert s.state.current_player == actor


def test_a_computers_lit_move_stays_lit_when_a_table_player_lays_his_bridge_meanwhile() -> None:
    s, _actor, _owner, bridge, asked = seated("table", "bot:easy")
    told = decide(s, asked)
    assert s.expected is not None
    lit = s.expected.text
    judged = put(s, with_bridge(s, bridge))
    assert verdict_of(judged) == "applied", s.verdict
    assert told is not None and s.expected is not None and s.expected.text == lit  # still to carry out
    assert verdict_of(put(s, s.expected_view())) == "applied"


def test_a_remote_board_refuses_a_wire_of_its_own_players_bridge_and_takes_the_other_boards() -> None:
    """Board a hosts, b joins; b's player to act. A wire from b of a's player's bridge stops the game
    (a's player's action is a's to send); a wire of b's own player's bridge out of turn is taken."""
    actions, actor, owner, bridge = bridge_position()
    for bridge_board, accepted in (("a", False), ("b", True)):
        seats = ["table", "table"]
        seats[owner if bridge_board == "a" else actor] = "table"
        seats[actor if bridge_board == "a" else owner] = "remote"  # on the host, b's seat is remote
        code = JoinCode("a", "b", "jeocinco", dict(Match(Record("jeocinco", {}, 2, [])).record.options), 2,
                        tuple(seats), ChanceKey.of(seed_secret(SEED)).commitment)
        host = Sync("a", code, code.seats)
        for text in actions:  # the line both boards agreed (each board's own moves, and b's as a restart has them)
            host.local(text, drawn=host.state.current_player == CHANCE)
        assert host.stopped is None
        state = host.state
        after = state.apply(state.action_from_text(bridge))
        agreed = host.receive(Wire(len(host.log) + 1, bridge, digest(after), "b"))
        assert bool(agreed) == accepted, host.stopped
        assert (host.stopped is None) == accepted


def test_a_new_games_set_up_before_a_computers_or_a_phones_turn_is_a_set_up_not_a_violation() -> None:
    for seats in (["bot:easy", "table"], ["phone", "table"]):
        s = session_for("contigo", chance="auto")
        left = {c: (v + 1) % 3 for c, v in s.referee.expected().items() if c.startswith("sq:a")}
        show(s, left)  # the last game's pieces still on the board
        assert s.request("new_game", {"seats": seats, "seed": 5}).answer == (True, {"game": "contigo", "seed": 5})
        assert not s.parts[s.state.current_player].at_table
        judged = s.judge()
        assert judged.public is not None
        assert judged.public["violation"] is None, judged.public["violation"]
        assert judged.public["setup"] is not None and judged.public["setup"]["code"] == "table.set_up"
        assert set(judged.public["setup"]["channels"]) == set(left)
