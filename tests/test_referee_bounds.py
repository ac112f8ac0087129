"""Judging is bounded: boards far from any move, or fitting many first moves, cost a bounded number
of engine calls; the referee keeps few states; two actions in a row are still found. Work is
counted (engine calls, states kept), never timed."""

from __future__ import annotations

import copy
import gc
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from controller.games import CHANCE, State, game_names, get_game
from controller.games.base import Action, Channel
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


def _decisions(game: str, options: dict[str, Any], players: int, seed: int, count: int) -> Iterator[Match]:
    """``count`` decision positions of a seeded random game, a few moves apart (each a match of its own)."""
    rules = get_game(game)
    match = Match.new(game, options, players, seed=seed)
    rng = random.Random(seed)
    limit = rules.max_game_length(match.state.options, players)
    found = 0
    while found < count and not match.state.is_terminal() and len(match.history) < limit:
        if match.state.current_player == CHANCE:
            match.resolve_chance()
            continue
        if len(match.history) % 7 == 3:
            found += 1
            yield Match(copy.deepcopy(match.record))
        match.apply(rng.choice(match.state.legal_actions()))


def _adversarial(state: State, channels: list[Channel], rng: random.Random) -> dict[str, dict[str, int]]:
    view = state.physical_view()
    legal = state.legal_actions()
    out = {"random": {c.name: rng.randint(0, c.maximum) for c in channels},
           "all_on": {c.name: c.maximum for c in channels}, "all_off": {c.name: 0 for c in channels}}
    targets = sorted({c: v for a in legal for c, v in state.physical_changes(a).items()}.items())
    out["crowd"] = {**view, **dict(rng.sample(targets, min(len(targets), 30)))}  # many first moves fit
    seen = [a for a in legal if state.physical_changes(a)]
    if seen:
        out["legal"] = after(state, rng.choice(seen))
    return out


@pytest.mark.parametrize("game", game_names())
def test_no_board_in_any_variant_makes_a_step_of_the_loop_exceed_its_bound(game: str, calls: Counter[str]) -> None:
    """Through the loop as the service drives a lazy referee: a board judged, then the LEDs, the state
    and the seat drawn for the game it leaves; later, while idle, one step of the next move table at a
    time. The next state's table never costs more than one step on the board's path."""
    from controller.referee import MAX_CHAIN_ACTIONS, MAX_CHAIN_STATES, MAX_INDEX_STEP, MAX_READ_ACTIONS

    # A judgement: the firsts it applies, each state's reading and legal actions, the seconds it scans.
    judging = (MAX_CHAIN_STATES + 1) * (2 * MAX_READ_ACTIONS + 3) + MAX_CHAIN_ACTIONS
    rules = get_game(game)
    rng = random.Random(3)
    worst_step = worst_path = 0
    for options, players in rules.configurations():
        channels = rules.channels(options, players)
        for match in _decisions(game, options, players, seed=5, count=3):
            for kind, board in _adversarial(match.state, channels, rng).items():
                trial = Match(copy.deepcopy(match.record))
                ref = Referee(trial, channels)
                ref.lazy = True
                calls.clear()
                ref.targets()  # the table's first step
                while True:
                    worst_step = max(worst_step, calls["physical_changes"])
                    if not ref.unready:
                        break
                    calls.clear()
                    ref.prepare()  # idle: the rest of the table, a step at a time
                calls.clear()
                verdict = ref.judge(board)
                assert ref.expanded <= MAX_CHAIN_STATES and ref.scanned <= MAX_CHAIN_ACTIONS
                assert engine_calls(calls) <= judging, (game, options, kind, calls)
                calls.clear()
                ref.targets(board)  # the LEDs, the state and the seat, for the game as the board left it
                ref.silent_actions()
                ref.clean_move(board)
                path = calls["physical_changes"]
                assert path <= MAX_INDEX_STEP, (game, options, kind, verdict.kind, calls)
                assert calls["apply"] <= MAX_INDEX_STEP, calls
                worst_path = max(worst_path, path)
    assert worst_step <= MAX_INDEX_STEP
