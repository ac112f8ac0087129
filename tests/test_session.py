"""The table session on its own: no thread, no clock, no broker, no sensor board — typed values in,
verdicts, events and states out."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from controller.config import BoardConfig
from controller.games import CHANCE, Game, registry
from controller.games.base import Options
from controller.games.record import ChanceKey, Match, Record
from controller.session import Session
from firmware_bridge.protocol import Hello
from hardware.layout import Layout, load_layout, reference_layout
from tests.support.toy import SQUARES, ToyGame, ToyState


class TwinState(ToyState):
    """Noughts and crosses where a1 can also be played as "A1": two moves, one board."""

    def legal_actions(self) -> list[Any]:
        acts = super().legal_actions()
        return [*acts, "A1"] if "a1" in acts else acts

    def apply(self, action: Any) -> TwinState:
        done = super().apply("a1" if action == "A1" else action)
        return TwinState(done.cells, done.to_move)

    def action_from_text(self, text: str) -> Any:
        return text if text == "A1" else super().action_from_text(text)


class TwinGame(ToyGame):
    name = "twin"

    def new_state(self, options: Options | None = None, num_players: int | None = None) -> TwinState:
        return TwinState((0,) * 9, -1)


GAME = TwinGame()
FRESH = bytes(range(32))  # the sessions' fresh secret


def session_for(game: str, seed: int = 1, **board: Any) -> Session:
    """A session whose sensor board has just sent a snapshot equal to the game's start."""
    def made(name: str) -> Layout:  # the test games have no layout file: the reference one, made
        return reference_layout(registry.get_game(name))

    layout_for = made if game in ("twin", "toy") else load_layout
    s = Session(BoardConfig(id="b", game=game, seed=seed, **board), layout_for(game), layout_for=layout_for,
                fresh_secret=lambda: FRESH)
    s.new_game(game, board.get("options"), board.get("num_players", 0), seed)
    s.snapshot(board_values(s, s.state.physical_view()))
    assert s.judge().kind == "in_sync"
    s.take_events()
    return s


def board_values(s: Session, view: dict[str, int]) -> list[int]:
    values = [0] * s.layout.sensor_count
    for channel, sensor in s.layout.sensor_of.items():
        values[sensor] = view.get(channel, 0)
    return values


def show(s: Session, view: dict[str, int]) -> None:
    for channel, value in view.items():
        if s.sensed.get(channel) != value:
            s.sense(channel, value)


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


@pytest.fixture
def twin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.ENGINES, "twin", "tests.test_session")


def test_a_clean_move_is_judged_at_once_and_told(twin: None) -> None:
    s = session_for("twin")
    s.request("roll", {})
    s.take_events()
    player = s.state.current_player
    show(s, {"sq:b2": player + 1})
    assert s.clean_move()  # one move's view, part of no other: no window needed
    verdict = s.judge()
    assert verdict.kind == "applied" and verdict.actions == ("b2",)
    assert kinds(s.take_events()) == ["action"]
    assert s.public_state()["last_action"] == "b2"


def test_a_board_two_moves_fit_is_ambiguous_until_the_buttons_choose(twin: None) -> None:
    s = session_for("twin")
    s.request("roll", {})
    player = s.state.current_player
    show(s, {"sq:a1": player + 1})
    assert not s.clean_move()
    verdict = s.judge()
    assert verdict.kind == "ambiguous" and set(verdict.actions) == {"a1", "A1"}
    assert s.public_state()["ambiguous"] == 2
    s.take_events()
    s.button("next")
    (choice,) = s.take_events()
    assert choice["type"] == "choice" and choice["of"] == 2  # the board is public: so are the moves it fits
    s.button("confirm")
    assert s.match.record.actions[-1] == choice["action"] and kinds(s.take_events()) == ["action"]
    assert s.judge().kind == "in_sync"


def test_a_lifted_pawn_is_progress_and_a_pawn_and_bead_move_are_taken_together() -> None:
    s = session_for("contigo", seed=3)
    s.request("roll", {})
    state = s.state
    rng = random.Random(2)
    pawn = next(a for a in rng.sample(state.legal_actions(), len(state.legal_actions()))
                if state.apply(a).current_player == state.current_player)
    mid = state.apply(pawn)
    beads = mid.legal_actions()[0]
    start, end = state.physical_view(), mid.apply(beads).physical_view()
    lifted = next(c for c, v in start.items() if c.startswith("sq:") and v and state.physical_changes(pawn).get(c) == 0)
    show(s, {lifted: 0})
    verdict = s.judge()
    assert verdict.kind == "progress" and verdict.channels == (lifted,) and len(s.match.record.actions) == 1
    show(s, end)
    verdict = s.judge()
    assert verdict.kind == "applied"
    assert verdict.actions == (state.action_to_text(pawn), mid.action_to_text(beads))


def test_a_wrong_board_is_a_violation_then_resolved_and_an_earlier_position_is_a_takeback(toy_game: Game) -> None:
    s = session_for("toy")
    s.request("roll", {})
    player = s.state.current_player
    show(s, {"sq:a1": 2 - player})  # the other player's piece
    verdict = s.judge()
    assert verdict.kind == "violation" and "wrong one" in verdict.message
    show(s, {"sq:a1": 0})
    assert s.judge().kind == "in_sync"
    assert kinds(s.take_events()) == ["chance", "violation", "resolved"]
    show(s, {"sq:a1": player + 1})
    assert s.judge().kind == "applied"
    show(s, {"sq:a1": 0})  # taken back off the board
    verdict = s.judge()
    assert verdict.kind == "takeback" and s.match.record.actions == ["first " + str(player)]


def test_undo_asks_for_the_board_back_and_requests_run_once(toy_game: Game) -> None:
    s = session_for("toy")
    assert s.request("roll", {}, "r1") == s.request("roll", {}, "r1")
    assert len(s.match.record.actions) == 1
    show(s, {"sq:b2": s.state.current_player + 1})
    s.judge()
    ok, result = s.request("undo", {}, "u1")
    assert ok and result == {"undone": "b2"}
    verdict = s.judge()  # the piece is still there: put it back
    assert verdict.kind == "violation" and verdict.message.startswith("put the board back")
    show(s, {"sq:b2": 0})
    assert s.judge().kind == "in_sync"
    assert s.request("choose", {"action": "zz"}) == (False, "illegal action zz: no such square")
    assert s.request("choose", {"action": 5}) == (False, "choose: 'action' has the wrong type")
    assert s.request("resign", {"player": 1}) == (True, {"resigned": 1})
    assert s.request("roll", {}) == (False, "roll: the game is over")
    assert s.public_state()["winners"] == [0]


def test_a_new_game_is_set_up_not_flagged_and_the_seed_stays_secret() -> None:
    s = session_for("contigo", seed=3)
    for _ in range(3):
        if s.state.current_player == CHANCE:
            s.request("roll", {})
        else:
            s.request("choose", {"action": s.state.action_to_text(s.state.legal_actions()[0])})
    moved = s.state.physical_view()
    show(s, moved)
    s.judge()
    assert s.request("new_game", {"seed": 4}) == (True, {"game": "contigo", "seed": 4})
    assert s.request("new_game", {}) == (True, {"game": "contigo"})
    assert s.match.record.keys == [ChanceKey.of(FRESH)]  # from fresh_secret, and told to nobody
    verdict = s.judge()
    assert verdict.kind == "setup" and verdict.message.startswith("set up the board")
    assert "seed" not in s.public_state() and FRESH.hex() not in json.dumps(s.public_state()) and s.serial == 3


def test_a_replayed_session_makes_the_same_game() -> None:
    record = Record.seeded("serpientes", {}, 3, 11)
    match = Match(record)
    s = session_for("serpientes", seed=11, num_players=3)
    rng = random.Random(4)
    for _ in range(60):
        if match.state.current_player == CHANCE:
            match.resolve_chance()
            assert s.request("roll", {})[0]
        else:
            action = rng.choice(match.state.legal_actions())
            text = match.state.action_to_text(action)
            match.apply(action)
            assert s.request("choose", {"action": text}) == (True, {"action": match.public_log[-1]})
    assert s.match.record.actions == match.record.actions
    hands = [s.private_state(p).get("hand") for p in range(3)]
    assert all(hands) and len({tuple(h or ()) for h in hands}) > 1


def test_every_square_of_the_toy_layout_is_a_channel(toy_game: Game) -> None:
    s = session_for("toy")
    assert set(s.layout.sensor_of) == {f"sq:{q}" for q in SQUARES}


def test_a_sensor_board_flashed_from_another_layout_is_told_but_refereed() -> None:
    s = session_for("contigo")
    layout = s.layout
    own = layout.board_config()["CONFIG_ID"]
    assert s.link_up(Hello(1, layout.board_kind, f"arbitro-fw 0.1.0 cfg {own}", tuple(layout.blocks))) is None
    assert kinds(s.take_events()) == ["link"]
    assert s.link_up(Hello(1, layout.board_kind, "arbitro-fw 0.1.0 cfg 0000", tuple(layout.blocks))) is None
    _link, warning = s.take_events()
    assert warning["type"] == "warning" and "arbitro firmware flash --layout" in warning["message"]
    error = s.link_up(Hello(1, layout.board_kind, "x", (("presence", 3),)))
    assert error is not None and "channels" in error  # another board's sensors: nothing can be refereed
