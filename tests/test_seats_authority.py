"""Authority belongs to the action's owner (``controller.seats``): a Jeocinco bridge laid out of turn
is its owner's action. Laid at the table for a player who sits away (a phone, a computer, the other
board), it is refused and spends nothing; a table player's own bridge is taken whoever is to act.
What the rules ask the table to set up is a set-up before anyone's turn."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from controller.games import CHANCE, get_game
from controller.games.chance import seed_secret
from controller.games.record import ChanceKey, Match, Record
from controller.remote import JoinCode, Sync, Wire, digest
from controller.session import Decide, Outcome, Session
from tests.test_ghost_moves import JEOCINCO_BEFORE_DISPUTE
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


@pytest.mark.parametrize("away", ["phone", "bot:easy", "remote"])
def test_a_bridge_of_a_player_who_sits_away_laid_at_the_table_is_refused_and_spends_nothing(away: str) -> None:
    """At board b, a bridge of a player board a seats (``remote`` here), a phone's or a computer's,
    laid by hands at this table: refused, nothing spent (board a's side: the wire test below)."""
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


def test_a_lit_move_away_and_a_table_players_bridge_meanwhile() -> None:
    """A table player lays his bridge while an away seat's move is lit: a phone's move stays lit
    (still the seat's to play); a computer is asked again at the new position (its decision replays
    from the position and the seed it was taken at)."""
    s, _actor, _owner, bridge, asked = seated("table", "bot:easy")
    decide(s, asked)
    assert s.expected is not None
    judged = put(s, with_bridge(s, bridge))
    assert verdict_of(judged) == "applied", s.verdict
    assert s.expected is None and [e for e in judged.effects if isinstance(e, Decide)]  # asked afresh
    s, actor, _owner, bridge, _ = seated("table", "phone")
    state = s.state
    move = next(state.action_to_text(a) for a in state.own_actions() if state.physical_changes(a))
    assert s.request("play", {"seat": actor, "secret": s.seat_secrets[actor], "action": move}).answer is not None
    assert s.expected is not None and s.expected.text == move
    assert verdict_of(put(s, with_bridge(s, bridge))) == "applied"
    assert s.expected is not None and s.expected.text == move  # still to carry out
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


def played_until(seed: int, stop: Callable[[Match], bool], limit: int = 4000) -> Match:
    """A 2-player Jeocinco game played at random (seeded) until ``stop`` holds."""
    match = Match(Record("jeocinco", {}, 2, [ChanceKey.of(seed_secret(seed))]))
    rng = random.Random(seed)
    while not stop(match):
        assert len(match.record.actions) < limit and not match.state.is_terminal(), f"seed {seed}: never"
        if match.state.current_player == CHANCE:
            match.resolve_chance()
        else:
            match.apply(rng.choice(match.state.legal_actions()))
    return match


def on_the_board(match: Match, back: int = 0, **board: Any) -> Session:
    """The game of ``match`` on a board set up as it stands (``back``: that many actions before its end)."""
    s = session_for("jeocinco", **board)
    actions = match.record.actions[:len(match.record.actions) - back]
    s.resume(Record("jeocinco", s.match.record.options, 2, list(match.record.keys), list(actions)))
    assert verdict_of(put(s, s.referee.expected())) == "in_sync"
    return s


def winning_bridge_out_of_turn(match: Match) -> bool:
    state = match.state
    return state.current_player >= 0 and any(
        state.player_of(a) != state.current_player and state.apply(a).is_terminal() for a in state.legal_actions())


def test_a_winning_bridge_laid_with_the_acting_players_placement_is_taken_and_wins() -> None:
    """Seed 10: at action 792 player 1 may lay a bridge that joins his five towers while player 0
    places his last piece of the turn; both land in one reading. The bridge wins; the piece beside it
    is moot (the game is over)."""
    match = played_until(10, winning_bridge_out_of_turn)
    state = match.state
    actor = state.current_player
    bridge = next(a for a in state.legal_actions() if state.player_of(a) != actor and state.apply(a).is_terminal())
    placement = next(a for a in state.legal_actions() if state.player_of(a) == actor and state.physical_changes(a)
                     and state.apply(a).current_player != actor)  # it ends his turn: nothing may follow it
    s = on_the_board(match, chance="auto")
    judged = put(s, {**state.apply(placement).physical_view(), **state.physical_changes(bridge)})
    assert verdict_of(judged) == "applied" and s.over, s.verdict
    assert s.winners() == [state.player_of(bridge)]
    assert [e["action"] for e in judged.events if e["type"] == "action"] == [state.action_to_text(bridge)]


def own_bridge_while_the_dice_are_due(match: Match) -> bool:
    """The dice are due right after a placement, and its player holds a bridge he may lay at the
    next decision."""
    state, history = match.state, match.history
    if state.current_player != CHANCE or len(history) < 2 or history[-2].current_player < 0:
        return False
    mover = history[-2].current_player
    after = state.apply(state.chance_outcomes()[0][0])
    earlier = {history[-2].action_to_text(a) for a in history[-2].legal_actions()}  # legal before the placement too
    return any(after.player_of(a) == mover and "~" in after.action_to_text(a) and after.action_to_text(a) in earlier
               for a in after.legal_actions() if after.player_of(a) != after.current_player)


def test_a_bridge_laid_while_the_dice_are_due_is_a_fault_until_the_roll_then_taken() -> None:
    """``docs/rules/jeocinco.md``, section 7: the dice are no decision; a bridge laid while they are
    due shows as a fault until they are rolled, and is taken at the next decision. The placement
    before it stands: it is not undone and done again after the bridge."""
    match = played_until(SEED, own_bridge_while_the_dice_are_due)
    s = on_the_board(match, back=1, chance="button")  # the placement is made at the table
    assert verdict_of(put(s, match.state.physical_view())) == "applied" and s.state.current_player == CHANCE
    mover = match.history[-2].current_player
    before = list(s.match.record.actions)
    after = s.state.apply(s.state.chance_outcomes()[0][0])
    earlier = {match.history[-2].action_to_text(a) for a in match.history[-2].legal_actions()}
    bridge = next(a for a in after.legal_actions() if after.player_of(a) == mover and "~" in after.action_to_text(a)
                  and after.player_of(a) != after.current_player and after.action_to_text(a) in earlier)
    laid = {**s.referee.expected(), **after.physical_changes(bridge)}
    judged = put(s, laid)
    assert verdict_of(judged) == "violation" and s.match.record.actions == before
    assert judged.public is not None and judged.public["violation"]["code"] == "board.waiting_for_roll"
    s.button("roll")
    text = after.action_to_text(bridge)
    assert s.state.current_player >= 0  # the next decision, whatever the dice said: the bridge is legal there
    judged = put(s, laid)
    assert verdict_of(judged) == "applied", s.verdict
    assert text in s.match.record.actions, (judged.events, s.verdict)
    assert s.match.record.actions[:len(before)] == before  # the placement stands where it was


@pytest.mark.parametrize("away", ["bot:easy", "phone"])
def test_a_bridge_that_falls_before_a_computers_or_a_phones_turn_is_a_set_up(away: str) -> None:
    """Seed 9 (``tests/test_ghost_moves.py``): the challenger wins the dispute rolls, so the
    challenged bridge loses its support. The seat to act next plays away from the board: the bridge
    still standing is what the table is to set up, not a violation of the away seat's turn."""
    options = get_game("jeocinco").options({"own_turn_bridges": True})
    record = Record.seeded("jeocinco", options, 2, 9, [*JEOCINCO_BEFORE_DISPUTE, "dispute D4N-D4E"])
    ahead = Match(replace(record, actions=list(record.actions)))  # a look ahead: the record itself stays as it is
    ahead.resolve_chance()
    ahead.resolve_chance()
    seats = ["table", "table"]
    seats[ahead.state.current_player] = away
    s = session_for("jeocinco", chance="button", options=options)
    s.resume(replace(record, seats=seats))
    assert verdict_of(put(s, s.referee.expected())) == "in_sync"
    standing = s.referee.expected()
    for _ in range(2):
        assert s.request("roll", {}).answer is not None
    assert not s.parts[s.state.current_player].at_table
    fallen = sorted(c for c, v in s.referee.expected().items() if v != standing[c])
    assert fallen == ["bridge:D4N-D4E~E4S-E4W"]
    public = s.judge().public
    assert public is not None
    assert public["violation"] is None, public["violation"]
    assert public["setup"] is not None and public["setup"]["channels"] == fallen
    assert verdict_of(put(s, s.referee.expected())) == "in_sync"
