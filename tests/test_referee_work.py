"""The work a reading costs on the loop's path, counted (never timed): a board's hundreds of
channels compared without a loop per channel, a violation described by its first six places only,
and Jeocinco's networks worked out once for the positions that share them."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from controller.games import CHANCE, get_game
from controller.games.jeocinco import position as jeocinco_position
from controller.games.record import Match
from controller.move_table import board_diff
from controller.referee import Referee
from controller.saturation import NO_CEILING


def test_a_board_diff_is_every_channel_that_differs_an_unsensed_one_reading_zero() -> None:
    rng = random.Random(7)
    view = {f"c{i}": rng.randint(0, 3) for i in range(650)}
    for _ in range(50):
        sensed = {c: (rng.randint(0, 3) if rng.random() < 0.05 else v) for c, v in view.items()}
        for c in rng.sample(sorted(sensed), 3):  # a few channels never sensed
            del sensed[c]
        want = frozenset((c, sensed.get(c, 0)) for c in view if sensed.get(c, 0) != view[c])
        assert board_diff(view, sensed) == want
        full = {c: sensed.get(c, 0) for c in view}
        assert board_diff(view, full) == want


def test_an_all_on_jeocinco_board_is_described_by_six_places_the_rest_only_counted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    match = Match.new("jeocinco", {}, 2, seed=3)
    channels = get_game("jeocinco").channels({}, 2)
    ref = Referee(match, channels)
    named: list[str] = []
    label = ref.label

    def counted(channel: str) -> Any:
        named.append(channel)
        return label(channel)

    monkeypatch.setattr(ref, "label", counted)
    view = ref.expected()
    said = ref.describe(view, {c.name: c.maximum for c in channels})
    differing = sum(1 for c in channels if view[c.name] != c.maximum)
    assert differing > 600 and len(said) == 7
    assert said[-1].params["count"] == str(differing - 6)
    assert len(named) == 6  # the old describe named every differing place, then kept six


def test_jeocinco_works_out_a_players_networks_once_for_every_position_with_his_pieces(
        monkeypatch: pytest.MonkeyPatch) -> None:
    match = Match.new("jeocinco", {"fast": True}, 2, seed=5)
    rng = random.Random(5)
    while len(match.record.actions) < 300 or match.state.current_player < 0:
        if match.state.current_player == CHANCE:
            match.resolve_chance()
        else:
            match.apply(rng.choice(match.state.legal_actions()))
    state = match.state
    jeocinco_position.networks.cache_clear()
    jeocinco_position._latest.clear()
    pos = state.position  # type: ignore[attr-defined]  # a JeocincoState's
    for pieces in pos.pieces:  # the position's own, as building its move table worked them out
        jeocinco_position.networks(pieces, pos.bridges)
    flooded: list[int] = []
    flood = jeocinco_position._flood

    def counted(mine: int, bridges: tuple[int, ...]) -> jeocinco_position.Networks:
        flooded.append(mine)
        return flood(mine, bridges)

    monkeypatch.setattr(jeocinco_position, "_flood", counted)
    for action in state.legal_actions()[:10]:  # what the referee looks at for a board of many moves
        state.apply(action).legal_actions()
    # A placement's are derived from the position's, the other player's kept; only an action that
    # changes what joins (a bridge laid, a tower replacing a piece) has them worked out again.
    assert len(flooded) <= 2, len(flooded)


def test_jeocincos_networks_derived_after_a_placement_are_those_worked_out_from_nothing() -> None:
    from controller.games.jeocinco import board as B

    rng = random.Random(11)
    for _ in range(500):
        mine = sum(1 << s for s in rng.sample(range(B.NUM_SLOTS), rng.randint(0, 150)))
        bridges = tuple(sorted(rng.sample(range(B.NUM_BRIDGES), rng.randint(0, 6))))
        jeocinco_position.networks(mine, bridges)
        more = mine | 1 << rng.randrange(B.NUM_SLOTS)
        derived = jeocinco_position.networks(more, bridges)
        assert derived == jeocinco_position._flood(more, bridges)
        assert all(near == B.adjacent(net) for net, near in derived)


def test_jeocincos_public_view_finds_every_slots_holder_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    from controller.games.jeocinco.position import JeocincoPosition

    match = Match.new("jeocinco", {}, 3, seed=9)
    rng = random.Random(9)
    while len(match.record.actions) < 200 and not match.state.is_terminal():
        if match.state.current_player == CHANCE:
            match.resolve_chance()
        else:
            match.apply(rng.choice(match.state.legal_actions()))
    pos = match.state.position  # type: ignore[attr-defined]  # a JeocincoState's
    assert pos.holders() == [pos.holder(s) for s in range(len(pos.holders()))]
    asked: list[int] = []
    holder = JeocincoPosition.holder

    def counted(self: JeocincoPosition, slot: int) -> int:
        asked.append(slot)
        return holder(self, slot)

    monkeypatch.setattr(JeocincoPosition, "holder", counted)
    slots = match.state.public_view()["slots"]
    assert len(slots) > 20 and len(asked) < 10, len(asked)  # the old view asked every slot of every player


def test_an_outcomes_states_are_worked_out_once_when_told_not_before_the_leds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from controller.config import Config
    from controller.session import Session

    board = Config.from_dict({"board": {"id": "work", "game": "serpientes", "seed": 1}}).board
    session = Session(board, check_board=lambda *_: None, fresh_secret=lambda: bytes(32))
    session.opened([])
    worked: list[str] = []
    public_state, private_state = session.public_state, session.private_state

    def public(seq: int = 0) -> dict[str, Any]:
        worked.append("public")
        return public_state(seq)

    def private(player: int) -> dict[str, Any]:
        worked.append("private")
        return private_state(player)

    monkeypatch.setattr(session, "public_state", public)
    monkeypatch.setattr(session, "private_state", private)
    outcome = session.link_up()
    assert outcome.scene is not None and worked == []  # the LEDs' scene is ready, the states are not worked out
    assert outcome.public is not None and outcome.public["sensors"] == "up"
    assert outcome.private is not None and len(outcome.private) == session.state.num_players
    assert worked == ["public"] + ["private"] * session.state.num_players  # once, however often read


def counting_board_diffs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one each time the referee works out a board's difference with a view."""
    from controller import referee

    compared: list[int] = []
    diff = board_diff  # as the referee calls it, by its own name

    def counted(view: dict[str, int], sensed: dict[str, int],
                ceiling: Mapping[str, int] = NO_CEILING) -> frozenset[tuple[str, int]]:
        compared.append(1)
        return diff(view, sensed, ceiling)

    monkeypatch.setattr(referee, "board_diff", counted)
    return compared


def test_a_clean_moves_board_is_compared_with_the_view_once_and_again_when_it_changes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop asks whether a reading is a clean move, then judges the same board: the difference
    with the view (a set of Jeocinco's 649 channels) is worked out once; a board changed in place
    since is compared again."""

    match = Match.new("jeocinco", {}, 2, seed=3)
    while not any(match.state.physical_changes(a) for a in match.state.legal_actions()):  # colours chosen, dice
        if match.state.current_player == CHANCE:
            match.resolve_chance()
        else:
            match.apply(match.state.legal_actions()[0])
    ref = Referee(match, get_game("jeocinco").channels({}, 2))
    ref.targets()  # the move table, built as the LEDs light the targets
    compared = counting_board_diffs(monkeypatch)
    state = match.state
    action = next(a for a in state.legal_actions() if state.physical_changes(a))
    sensed = dict(state.apply(action).physical_view())
    wrong = next(c for c, v in sensed.items() if v == 0 and c not in state.physical_changes(action))
    assert ref.clean_move(sensed)
    sensed[wrong] = 1  # the same board, changed in place: no longer the move
    assert not ref.clean_move(sensed) and len(compared) == 2
    del sensed[wrong]
    assert ref.clean_move(sensed) and len(compared) == 3
    assert ref.judge(sensed).kind == "applied" and len(compared) == 3


def test_a_boards_targets_asked_by_the_leds_and_the_state_compare_it_with_the_view_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """After a move the LEDs' scene and the public state each ask for the targets of the same
    board: its difference with the view is worked out once."""

    match = Match.new("serpientes", {}, 3, seed=4)
    ref = Referee(match, get_game("serpientes").channels({}, 3))
    while not ref.targets():  # to where a player has pieces to place
        if match.state.current_player == CHANCE:
            match.resolve_chance()
        else:
            match.apply(match.state.legal_actions()[0])
    compared = counting_board_diffs(monkeypatch)
    sensed = dict(ref.expected())
    lit = ref.targets(sensed)
    assert lit and ref.targets(sensed) == lit and len(compared) == 1
