"""Judging is bounded: boards far from any move, or fitting many first moves, cost a bounded number
of engine calls; the referee keeps few states; two actions in a row are still found. Work is
counted (engine calls, states kept), never timed."""

from __future__ import annotations

import gc
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from controller.games import CHANCE, State, get_game
from controller.games.base import Action
from controller.games.contigo.state import ContigoState
from controller.games.jeocinco.state import JeocincoState
from controller.games.record import Match
from controller.games.serpientes.state import SerpientesState
from controller.referee import Referee

ENGINE_CALLS = ("apply", "physical_changes", "legal_actions")


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts the engines' apply, physical_changes and legal_actions calls (all games)."""
    counter: Counter[str] = Counter()
    for cls in (ContigoState, JeocincoState, SerpientesState):
        for name in ENGINE_CALLS:
            method = getattr(cls, name)

            def counted(self: State, *args: Any, _method: Any = method, _name: str = name) -> Any:
                counter[_name] += 1
                return _method(self, *args)

            monkeypatch.setattr(cls, name, counted)
    yield counter


def reach(game: str, options: dict[str, Any], seed: int, wanted: Callable[[Any], bool], players: int = 2) -> Match:
    """A seeded random game played until a decision position where ``wanted`` holds."""
    match = Match.new(game, options, players, seed=seed)
    rng = random.Random(seed)
    while True:
        state = match.state
        assert not state.is_terminal(), "no suitable position reached"
        if state.current_player == CHANCE:
            match.resolve_chance()
        elif wanted(state):
            return match
        else:
            match.apply(rng.choice(state.legal_actions()))


def referee(match: Match) -> Referee:
    rules = get_game(match.record.game)
    ref = Referee(match, rules.channels(match.record.options, match.record.num_players))
    ref.targets()  # as the service does after every action, to light the LEDs
    return ref


def after(state: State, *actions: Action) -> dict[str, int]:
    for action in actions:
        state = state.apply(action)
    return state.physical_view()


def engine_calls(counter: Counter[str]) -> int:
    return sum(counter[name] for name in ENGINE_CALLS)


def pair(state: State, pick: Callable[[State, list[Action]], Action] | None = None) -> tuple[Action, Action] | None:
    """Two actions in a row by the player to move, the second leaving the first's channels alone."""
    for first in state.legal_actions():
        nxt = state.apply(first)
        if nxt.current_player != state.current_player:
            continue
        seconds = [b for b in nxt.legal_actions() if nxt.physical_changes(b)
                   and not set(nxt.physical_changes(b)) & set(state.physical_changes(first))]
        if seconds:
            return first, (pick(nxt, seconds) if pick else seconds[0])
    return None


def jeocinco_fast_two_to_place(state: State) -> bool:
    return state.phase == "place" and state.public_view()["pieces_to_place"]["rolled"] >= 2 \
        and pair(state) is not None


def test_jeocinco_fast_boards_far_from_any_move_cost_few_engine_calls(calls: Counter[str]) -> None:
    # Well into a game: pieces on the board make engine calls dearer.
    match = reach("jeocinco", {"fast": True}, 8,
                  lambda s: sum(s.physical_view().values()) >= 12 and jeocinco_fast_two_to_place(s))
    state = match.state
    text = state.to_text()
    rules = get_game("jeocinco")
    names = [c.name for c in rules.channels(state.options, 2)]
    rng = random.Random(1)
    boards = {"all on": dict.fromkeys(names, 1), "all off": dict.fromkeys(names, 0),
              "random": {c: rng.randint(0, 1) for c in names}}
    for kind, board in boards.items():
        ref = referee(match)
        calls.clear()
        verdict = ref.judge(board)
        assert verdict.kind == "violation", kind
        assert match.state.to_text() == text
        assert engine_calls(calls) <= 10, (kind, calls)  # the old search applied hundreds of states
    # Two placements at once are still one verdict, found with a handful of calls.
    found = pair(state)
    assert found is not None
    first, second = found
    ref = referee(match)
    calls.clear()
    verdict = ref.judge(after(state, first, second))
    assert verdict.kind == "applied" and len(verdict.actions) == 2, verdict
    assert engine_calls(calls) <= 20, calls


def test_a_board_fitting_many_first_moves_stops_at_the_budget_and_says_so(calls: Counter[str]) -> None:
    match = reach("jeocinco", {"fast": True}, 2, jeocinco_fast_two_to_place)  # a roll with many slots to fill
    state = match.state
    text = state.to_text()
    # Up to thirty places a legal action would put a piece on, all filled: many first moves fit.
    targets = sorted({c: v for a in state.legal_actions() for c, v in state.physical_changes(a).items()
                      if v}.items())
    assert len(targets) >= 12  # more than the search may try
    board = {**state.physical_view(), **dict(targets[:30])}
    ref = referee(match)
    calls.clear()
    verdict = ref.judge(board)
    assert verdict.kind == "violation"
    assert "make one move at a time" in verdict.message
    assert match.state.to_text() == text
    assert calls["apply"] <= 40, calls  # the old search applied every fitting first, and more
    assert ref.expanded <= 10


def capture_move_with_beads(state: ContigoState) -> bool:
    return state.phase_ == "move" and state.turn >= 6 and pair(state) is not None


def test_contigo_capture_wrong_boards_cost_a_bounded_number_of_engine_calls(calls: Counter[str]) -> None:
    match = reach("contigo", {"game": "capture"}, 4, capture_move_with_beads)
    state = match.state
    text = state.to_text()
    channels = get_game("contigo").channels(state.options, 2)
    rng = random.Random(2)
    boards = {"all on": {c.name: c.maximum for c in channels},
              "random": {c.name: rng.randint(0, c.maximum) for c in channels}}
    first = next(a for a in state.legal_actions() if state.apply(a).current_player == state.current_player)
    view = after(state, first)
    # A crowd: the pawn move, and every pit changed the way some bead move would change it.
    beads = state.apply(first)
    boards["crowd"] = {**view, **{c: v for b in beads.legal_actions() for c, v in beads.physical_changes(b).items()}}
    for kind, board in boards.items():
        ref = referee(match)
        calls.clear()
        verdict = ref.judge(board)
        assert verdict.kind == "violation", kind
        assert match.state.to_text() == text
        # The old search computed every bead move of every pawn move that fit: tens of thousands.
        assert calls["physical_changes"] <= 2300, (kind, calls)


def test_a_contigo_pawn_and_bead_move_are_still_taken_together_without_the_whole_bead_table(
        calls: Counter[str]) -> None:
    for game in ("alignment", "capture"):
        match = reach("contigo", {"game": game}, 5, lambda s: s.phase_ == "move" and s.turn >= 4
                      and pair(s) is not None)
        state = match.state

        def middle(nxt: State, seconds: list[Action]) -> Action:
            return seconds[len(seconds) // 2]

        found = pair(state, middle)
        assert found is not None
        first, second = found
        beads = len(state.apply(first).legal_actions())
        ref = referee(match)
        calls.clear()
        verdict = ref.judge(after(state, first, second))
        assert verdict.kind == "applied", verdict
        assert verdict.actions == (state.action_to_text(first), state.apply(first).action_to_text(second))
        # The search stops at the bead move that fits; the old one indexed every bead move first.
        assert calls["physical_changes"] < beads, (game, calls, beads)


def test_serpientes_reveal_then_step_is_one_verdict_within_the_budget() -> None:
    def run_then_step(state: State) -> bool:
        return "run" in [state.action_to_text(a) for a in state.legal_actions()]

    match = reach("serpientes", {}, 2, run_then_step, players=3)
    state = match.state
    run = state.action_from_text("run")
    revealed = state.apply(run)
    step = next(a for a in revealed.legal_actions() if revealed.physical_changes(a))
    ref = referee(match)
    verdict = ref.judge(after(state, run, step))
    assert verdict.kind == "applied" and verdict.actions == ("run", revealed.action_to_text(step)), verdict
    # The silent firsts are tried in legal order ("add ..." first): "run" comes within the budget.
    assert ref.expanded <= len(state.legal_actions()) - 1


def _states_kept(ref: Referee) -> set[int]:
    """Ids of the game states the referee holds itself (not through its match)."""
    seen, found, todo = {id(ref.match)}, set(), [v for k, v in vars(ref).items() if k != "match"]
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, State):
            found.add(id(obj))
            continue  # a state's insides are the engine's
        if isinstance(obj, (dict, list, tuple, set, frozenset)) or hasattr(obj, "__slots__"):
            todo.extend(gc.get_referents(obj))
    return found


def test_over_a_capture_game_the_referee_keeps_few_states_and_none_off_the_game() -> None:
    match = Match.new("contigo", {"game": "capture"}, 2, seed=11)
    ref = referee(match)
    rng = random.Random(11)
    most = 0
    pairs = 0
    while not match.state.is_terminal() and len(match.history) < 240:
        state = match.state
        if state.current_player == CHANCE:
            match.resolve_chance()
            continue
        ref.targets()
        action = rng.choice(state.legal_actions())
        actions = [action]
        nxt = state.apply(action)
        if nxt.current_player == state.current_player and rng.random() < 0.7:
            actions.append(rng.choice(nxt.legal_actions()))
            pairs += 1
        verdict = ref.judge(after(state, *actions))
        if verdict.kind == "ambiguous":
            for a in actions:
                match.apply(a)
        else:
            assert verdict.kind == "applied", verdict
        kept = _states_kept(ref)
        history = {id(s) for s in match.history}
        assert not kept - history, "states off the game (second-level states) are not kept"
        most = max(most, len(kept))
    assert pairs >= 20
    assert most <= 16  # the old cache held up to 65 states, most of them second-level ones
