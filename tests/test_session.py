"""The table session on its own: no thread, no clock, no broker, no sensor board — typed values in,
one outcome out (verdict, events, LED scene, states, answer, effects)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.config import BoardConfig
from controller.games import CHANCE, TERMINAL, Game, registry
from controller.games.base import Options
from controller.games.record import ChanceKey, Match, Record
from controller.layouts import reference_layout
from controller.ledview import GREEN, render_frame
from controller.service import OTHER_CONFIG
from controller.session import CalibrateRings, Outcome, RequestSnapshot, Session, TakeBoard
from controller.wiring import Wiring
from firmware_bridge.protocol import Hello
from hardware.layout import Layout, load_layout
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

    def status_light(self) -> bool:
        return bool(self.cells[4])  # the centre is taken: the game's own light, as Scriptorium's aligned rings


class TwinGame(ToyGame):
    name = "twin"

    def new_state(self, options: Options | None = None, num_players: int | None = None) -> TwinState:
        return TwinState((0,) * 9, -1)


GAME = TwinGame()
FRESH = bytes(range(32))  # the sessions' fresh secret


def wiring_for(game: str) -> Wiring:
    def made(name: str) -> Layout:  # the test games have no layout file: the reference one, made
        return reference_layout(registry.get_game(name))

    layout_for = made if game in ("twin", "toy") else load_layout
    return Wiring(layout_for(game), game, layout_for=layout_for)


def session_for(game: str, seed: int = 1, wiring: Wiring | None = None, **board: Any) -> Session:
    """A session whose sensor board has just sent a snapshot equal to the game's start."""
    wiring = wiring or wiring_for(game)
    s = Session(BoardConfig(id="b", game=game, seed=seed, **board), check_board=wiring.check,
                fresh_secret=lambda: FRESH)
    s.new_game(game, board.get("options"), board.get("num_players", 0), seed)
    readings = wiring.readings(board_values(wiring.layout, s.state.physical_view()))
    assert isinstance(readings, dict)
    s.snapshot(readings)
    judged = s.judge().verdict
    assert judged is not None and judged.kind == "in_sync"
    return s


def board_values(layout: Layout, view: dict[str, int]) -> list[int]:
    values = [0] * layout.sensor_count
    for channel, sensor in layout.sensor_of.items():
        values[sensor] = view.get(channel, 0)
    return values


def show(s: Session, view: dict[str, int]) -> Outcome:
    """The hands make the board show ``view``: the outcome of the last reading."""
    outcome = Outcome()
    for channel, value in view.items():
        if s.sensed.get(channel) != value:
            outcome = s.sense(channel, value)
    return outcome


def kinds(events: Any) -> list[str]:
    return [e["type"] for e in events]


def verdict_of(outcome: Outcome) -> str:
    assert outcome.verdict is not None
    return outcome.verdict.kind


@pytest.fixture
def twin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.ENGINES, "twin", "tests.test_session")


def test_a_clean_move_is_judged_at_once_and_told(twin: None) -> None:
    s = session_for("twin")
    s.request("roll", {})
    player = s.state.current_player
    sensed = show(s, {"sq:b2": player + 1})
    assert sensed.sensed and sensed.clean  # one move's view, part of no other: no window needed
    assert sensed.public is None and sensed.scene is None and not sensed.events  # a reading alone tells nothing
    outcome = s.judge()
    assert outcome.verdict is not None and outcome.verdict.kind == "applied" and outcome.verdict.actions == ("b2",)
    assert kinds(outcome.events) == ["action"]
    assert outcome.public is not None and outcome.public["last_action"] == "b2"


def test_a_board_two_moves_fit_is_ambiguous_until_the_buttons_choose(twin: None) -> None:
    s = session_for("twin")
    s.request("roll", {})
    player = s.state.current_player
    assert not show(s, {"sq:a1": player + 1}).clean
    verdict = s.judge().verdict
    assert verdict is not None and verdict.kind == "ambiguous" and set(verdict.actions) == {"a1", "A1"}
    assert s.public_state()["ambiguous"] == 2
    (choice,) = s.button("next").events
    assert choice["type"] == "choice" and choice["of"] == 2  # the board is public: so are the moves it fits
    confirmed = s.button("confirm")
    assert s.match.record.actions[-1] == choice["action"] and kinds(confirmed.events) == ["action"]
    assert verdict_of(s.judge()) == "in_sync"


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
    verdict = s.judge().verdict
    assert verdict is not None and verdict.kind == "progress" and verdict.channels == (lifted,)
    assert len(s.match.record.actions) == 1
    show(s, end)
    verdict = s.judge().verdict
    assert verdict is not None and verdict.kind == "applied"
    assert verdict.actions == (state.action_to_text(pawn), mid.action_to_text(beads))


def test_a_wrong_board_is_a_violation_then_resolved_and_an_earlier_position_is_a_takeback(toy_game: Game) -> None:
    s = session_for("toy")
    rolled = s.request("roll", {})
    player = s.state.current_player
    show(s, {"sq:a1": 2 - player})  # the other player's piece
    wrong = s.judge()
    assert wrong.verdict is not None and wrong.verdict.kind == "violation" and "wrong one" in wrong.verdict.message
    show(s, {"sq:a1": 0})
    right = s.judge()
    assert verdict_of(right) == "in_sync"
    assert kinds([*rolled.events, *wrong.events, *right.events]) == ["chance", "violation", "resolved"]
    show(s, {"sq:a1": player + 1})
    assert verdict_of(s.judge()) == "applied"
    show(s, {"sq:a1": 0})  # taken back off the board
    assert verdict_of(s.judge()) == "takeback" and s.match.record.actions == ["first " + str(player)]


def test_undo_asks_for_the_board_back_and_requests_run_once(toy_game: Game) -> None:
    s = session_for("toy")
    assert s.request("roll", {}, "r1").answer == s.request("roll", {}, "r1").answer
    assert len(s.match.record.actions) == 1
    show(s, {"sq:b2": s.state.current_player + 1})
    s.judge()
    assert s.request("undo", {}, "u1").answer == (True, {"undone": "b2"})
    verdict = s.judge().verdict  # the piece is still there: put it back
    assert verdict is not None and verdict.kind == "violation" and verdict.message.startswith("put the board back")
    show(s, {"sq:b2": 0})
    assert verdict_of(s.judge()) == "in_sync"
    refused = s.request("choose", {"action": "zz"})
    assert refused.answer == (False, "illegal action zz: no such square")
    assert refused.public is None and refused.scene is None and not refused.events  # nothing changed: nothing told
    assert s.request("choose", {"action": 5}).answer == (False, "choose: 'action' has the wrong type")
    assert s.request("resign", {"player": 1}).answer == (True, {"resigned": 1})
    assert s.request("roll", {}).answer == (False, "roll: the game is over")
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
    assert s.request("new_game", {"seed": 4}).answer == (True, {"game": "contigo", "seed": 4})
    assert s.request("new_game", {}).answer == (True, {"game": "contigo"})
    assert s.match.record.keys == [ChanceKey.of(FRESH)]  # from fresh_secret, and told to nobody
    verdict = s.judge().verdict
    assert verdict is not None and verdict.kind == "setup" and verdict.message.startswith("set up the board")
    assert "seed" not in s.public_state() and FRESH.hex() not in json.dumps(s.public_state()) and s.serial == 3


def test_a_replayed_session_makes_the_same_game() -> None:
    record = Record.seeded("serpientes", {}, 3, 11)
    match = Match(record)
    s = session_for("serpientes", seed=11, num_players=3)
    rng = random.Random(4)
    for _ in range(60):
        if match.state.current_player == CHANCE:
            match.resolve_chance()
            assert s.request("roll", {}).answer == (True, {"outcome": match.public_log[-1]})
        else:
            action = rng.choice(match.state.legal_actions())
            text = match.state.action_to_text(action)
            match.apply(action)
            assert s.request("choose", {"action": text}).answer == (True, {"action": match.public_log[-1]})
    assert s.match.record.actions == match.record.actions
    hands = [s.private_state(p).get("hand") for p in range(3)]
    assert all(hands) and len({tuple(h or ()) for h in hands}) > 1


def test_every_square_of_the_toy_layout_is_a_channel(toy_game: Game) -> None:
    assert set(wiring_for("toy").layout.sensor_of) == {f"sq:{q}" for q in SQUARES}


def test_a_sensor_board_flashed_from_another_layout_is_told_but_refereed() -> None:
    wiring = wiring_for("contigo")
    s = session_for("contigo", wiring=wiring)
    layout = wiring.layout
    own = layout.board_config()["CONFIG_ID"]
    assert wiring.link_up(Hello(1, layout.board_kind, f"arbitro-fw 0.1.0 cfg {own}", tuple(layout.blocks))) == \
        (None, None)
    assert kinds(s.link_up().events) == ["link"]
    error, warning = wiring.link_up(Hello(1, layout.board_kind, "arbitro-fw 0.1.0 cfg 0000", tuple(layout.blocks)))
    assert error is None and warning is not None and "arbitro firmware flash --layout" in warning
    _link, told = s.link_up(OTHER_CONFIG(problem=warning)).events
    assert told["type"] == "warning" and told["message"].endswith(warning) and told["code"] == OTHER_CONFIG.code
    error, _ = wiring.link_up(Hello(1, layout.board_kind, "x", (("presence", 3),)))
    assert error is not None and "channels" in error  # another board's sensors: nothing can be refereed


def test_the_session_imports_no_hardware_no_link_and_no_io() -> None:
    """The pure session is handed channels and checks, never the sensor board's link, the hardware or
    the journal: importing it loads none of them (and so no journal <-> session circle)."""
    code = "import sys, controller.session; print('\\n'.join(sorted(sys.modules)))"
    loaded = set(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                                cwd=Path(__file__).parents[1]).stdout.split())
    forbidden = ("firmware_bridge", "hardware", "controller.journal", "controller.service", "controller.mqtt",
                 "controller.wiring", "sqlite3", "serial", "gpiozero", "adafruit_pixelbuf", "paho", "socket")
    assert not sorted(m for m in loaded if m.split(".")[0] in forbidden or m in forbidden)


def test_an_outcome_carries_the_events_states_scene_answer_and_effects(twin: None) -> None:
    s = session_for("twin")
    rolled = s.request("roll", {}, "r1")
    assert rolled.answer is not None and rolled.answer[0] and kinds(rolled.events) == ["chance"]
    assert rolled.public == s.public_state() and rolled.scene == s.scene()
    assert rolled.private == tuple(s.private_state(p) for p in range(s.state.num_players))
    assert rolled.effects == ()  # the same game goes on: nothing to wire up
    player = s.state.current_player
    show(s, {"sq:c3": player + 1})
    held = s.judge(settled=False)  # another move could still come of it: shown, not told
    assert held.held and held.scene is not None and held.public is None and not held.events
    assert held.scene.player == 1 - player  # the LEDs show the move as taken: the other player is to play
    taken = s.button("next")  # a button: the hands are done, so what was held is taken first
    assert not taken.held and kinds(taken.events)[:1] == ["action"] and s.match.record.actions[-1] == "c3"
    again = s.request("new_game", {"seed": 2})
    assert again.effects == (TakeBoard("twin"), CalibrateRings({}))


def test_another_games_board_is_wired_up_and_read_afresh() -> None:
    wiring = wiring_for("contigo")
    s = session_for("contigo", wiring=wiring)
    other = load_layout("serpientes")
    wiring.hello = Hello(1, other.board_kind, "x", tuple(other.blocks))  # the sensor board wired up is Serpientes'
    outcome = s.request("new_game", {"game": "serpientes", "num_players": 3})
    assert outcome.answer == (True, {"game": "serpientes"})
    assert outcome.effects == (TakeBoard("serpientes"), CalibrateRings({}), RequestSnapshot())
    assert outcome.public is not None and outcome.public["game"] == "serpientes" and len(outcome.private) == 3
    assert not s.board_known  # judged again only once the snapshot came
    assert wiring.take("serpientes") is not wiring.layout_for("contigo") and wiring.layout.game == "serpientes"


def test_the_game_lights_its_own_status_led(twin: None) -> None:
    s = session_for("twin")
    s.request("roll", {})
    assert not s.scene().status_light
    centre = s.request("choose", {"action": "b2"})
    assert centre.scene is not None and centre.scene.status_light  # TwinState.status_light: the centre is taken
    layout = wiring_for("twin").layout
    assert render_frame(layout, centre.scene, True)[layout.status_leds[3]] == GREEN
    assert s.scene().player != TERMINAL


def test_a_refused_request_still_takes_the_move_the_board_held(twin: None) -> None:
    s = session_for("twin")
    s.request("roll", {})
    show(s, {"sq:c3": s.state.current_player + 1})
    assert s.judge(settled=False).held
    refused = s.request("choose", {"action": "zz"})  # the hands are done: what the board shows is taken first
    assert refused.answer is not None and not refused.answer[0] and not refused.held
    assert kinds(refused.events) == ["action"] and refused.public is not None and refused.public["moves"] == 2
    assert s.request("state", {}).answer == (True, s.public_state())  # asking for the state commits nothing


def test_scriptorium_lights_its_status_while_the_rings_are_aligned() -> None:
    """What the fourth status LED showed before the game said it itself: the public view's ``aligned``."""
    rng = random.Random(5)
    lit = 0
    for seed in range(6):
        match = Match(Record.seeded("scriptorium", {}, 2, seed))
        for _ in range(400):
            state = match.state
            assert state.status_light() == state.public_view()["aligned"]
            lit += state.status_light()
            if state.is_terminal():
                break
            if state.current_player == CHANCE:
                match.resolve_chance()
            else:
                match.apply(rng.choice(state.legal_actions()))
    assert lit  # the rings did align in these games
