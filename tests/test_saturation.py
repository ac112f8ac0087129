"""Contigo's pits read beyond the sensor's range (issue 34.4): a hall sensor calibrated up to 8
beads reads a fuller pit as 8. The referee, knowing every count from the game, compares such a pit
as "at least 8", judges a move from the changes it can see, and asks for a confirm where it cannot
tell moves apart (``ambiguous``, or an invisible move among the silent choices)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from controller.config import Config
from controller.games import State
from controller.move_table import board_diff
from controller.saturation import seen_changes
from controller.service import Service
from controller.session import Session
from firmware_bridge.sim import SimulatedBoard
from hardware.layout import Layout, load_layout
from hardware.leds import LedStrip, RecordingPixels
from tests.test_session import session_for, show

TOP = 8  # the highest count calibrated (docs/build/contigo.md: the reference build's hall sensors)
LEVELS = {str(n): 2000 * n - 60 * n * n for n in range(TOP + 1)}  # each bead adds less than the one before


def calibrated() -> Layout:
    """Contigo's reference layout, calibrated (as ``arbitro calibrate --max-count 8`` leaves it)."""
    data = load_layout("contigo").to_dict()
    pits = [c for c in data["channels"] if c.startswith("pit:")]
    data["calibration"] = {"zero": dict.fromkeys(pits, 30000), "count": {"channel": pits[0], "levels": LEVELS}}
    return Layout.from_dict(data)


def saturated(view: dict[str, int], ceiling: dict[str, int]) -> dict[str, int]:
    """What the sensors read of a board: a pit holding more than its ceiling reads the ceiling."""
    return {c: min(v, ceiling[c]) if c in ceiling else v for c, v in view.items()}


def test_a_layout_knows_how_far_its_pits_count() -> None:
    layout = calibrated()
    ceiling = layout.sensing_max()
    assert len(ceiling) == 28 and set(ceiling.values()) == {TOP} and all(c.startswith("pit:") for c in ceiling)
    assert load_layout("contigo").sensing_max() == {}  # uncalibrated: the plain quantization, up to 63


def test_the_simulated_sensor_saturates_at_the_highest_level_calibrated() -> None:
    """The firmware (on the simulated Pico) maps a field beyond the top level to the top count."""
    layout = calibrated()
    sensor = layout.sensor_of["pit:n-a"]
    with SimulatedBoard(layout.blocks, layout.board_kind, board_config=layout.board_config(), clock="manual") as sim:
        beads_12 = 30000 + LEVELS[str(TOP)] + 4 * 900  # four beads more than calibrated, each adding less
        sim.set_raw(sensor, beads_12)
        assert sim.values()[sensor] == TOP


def test_the_service_tells_its_referee_how_far_the_pits_count() -> None:
    config = Config.from_dict({"board": {"game": "contigo"}, "inputs": {"enabled": False},
                               "mqtt": {"enabled": False}, "sensors": {"url": "none"}})
    layout = calibrated()
    service = Service(config, LedStrip(RecordingPixels(layout.led_count)), layout=layout).start()
    try:
        assert service.call(lambda: dict(service.session.referee.ceiling)) == layout.sensing_max()
    finally:
        service.stop()


def test_a_board_diff_compares_a_saturated_pit_as_at_least() -> None:
    view = {"pit:a": 10, "pit:b": 3, "sq:a1": 1}
    ceiling = {"pit:a": TOP, "pit:b": TOP}
    assert board_diff(view, {"pit:a": TOP, "pit:b": 3, "sq:a1": 1}, ceiling) == frozenset()
    assert board_diff(view, {"pit:a": 5, "pit:b": TOP, "sq:a1": 1}, ceiling) == {("pit:a", 5), ("pit:b", TOP)}
    assert board_diff(view, {"pit:a": TOP, "pit:b": 3, "sq:a1": 1}) == {("pit:a", TOP)}  # no ceiling: a change
    # 10 -> 12 beads is no change a sensor can show; 3 -> 11 shows as 3 -> 8.
    assert seen_changes({"pit:a": 12, "pit:b": 11}, view, ceiling) == {"pit:b": TOP}


def choose(s: Session, text: str) -> bool:
    """The table picks ``text`` among the choices with ``next``, then ``confirm``; False when it
    is not among them."""
    options = s.choices()
    if text not in options:
        return False
    while options[s.choice % len(options)] != text:
        s.button("next")
    s.button("confirm")
    return True


def random_moves(s: Session, seed: int, moves: int) -> Iterator[tuple[State, str, State]]:
    """Up to ``moves`` random legal moves of the game at ``s``'s table, chance rolled with the
    button: (the state, the move's text, the state it makes), each once the one before is taken."""
    rng = random.Random(seed)
    for _ in range(moves):
        state = s.state
        if s.over:
            return
        if state.current_player < 0:
            s.request("roll", {})
            continue
        action = rng.choice(state.legal_actions())
        yield state, state.action_to_text(action), state.apply(action)


def play_through_saturating_sensors(options: dict[str, Any], players: int, seed: int, moves: int, top: int, *,
                                    told: bool = True) -> Counter[str]:
    """Random legal moves at a table whose pits read no higher than ``top`` (``told``: the referee
    knows it, as the service tells it): how each move was taken, counted. A verdict is the move
    played, or a choice the buttons settle; anything else is counted ``wrong`` and ends the game.
    A move from or into a pit at or beyond ``top`` is counted apart."""
    s = session_for("contigo", seed=seed, options=options, num_players=players)
    ceiling = dict.fromkeys(calibrated().sensing_max(), top)
    if told:
        s.referee.sensing(ceiling)  # as the service does once it wires the board up
    taken = Counter[str]()
    for state, text, after in random_moves(s, seed, moves):
        full = any(v >= top for c, v in {**state.physical_view(), **after.physical_view()}.items()
                   if c.startswith("pit:"))
        show(s, saturated(after.physical_view(), ceiling))
        verdict = s.judge().verdict
        assert verdict is not None
        kind = verdict.kind + (" (a pit at or beyond the sensor's top)" if full else "")
        if verdict.kind in ("ambiguous", "progress", "in_sync"):  # fits several, on the way to more, unseen
            choose(s, text)
        if verdict.kind == "violation" or s.state.to_text() != after.to_text():
            taken["wrong" + kind[len(verdict.kind):]] += 1
            break
        taken[kind] += 1
    return taken


@pytest.mark.parametrize(("options", "players", "seed", "top"),
                         [({"win": "five"}, 2, 3, TOP), ({}, 4, 4, TOP), ({"win": "five"}, 2, 3, 3), ({}, 4, 4, 4),
                          ({"game": "capture"}, 2, 6, 3)],
                         ids=["2p-five-top8", "4p-top8", "2p-five-top3", "4p-top4", "capture-top3"])
def test_random_games_read_through_saturating_sensors_are_refereed_move_for_move(
        options: dict[str, Any], players: int, seed: int, top: int) -> None:
    """Every move is taken as played: at once from the changes the sensors show, or, where they
    cannot tell it from another, by the buttons among the moves the board fits. Sensors counting
    only to 3 or 4 make the boards the sensors cannot tell apart common."""
    taken = play_through_saturating_sensors(options, players, seed, 600, top)
    assert not [kind for kind in taken if kind.startswith("wrong")], taken
    beyond = Counter({kind.split(" ")[0]: n for kind, n in taken.items() if "beyond" in kind})
    assert beyond.total() >= 50 and beyond["applied"] >= 10, taken  # judged from the changes it sees
    if top < TOP:
        assert beyond["ambiguous"] and beyond["in_sync"], taken  # fits several, or shows nothing: chosen


def test_a_referee_not_told_of_the_ceiling_misjudges_a_full_pit() -> None:
    """The same table with a referee that takes a reading of 8 for exactly 8: it goes wrong at a
    move from or into a pit holding more."""
    taken = play_through_saturating_sensors({"win": "five"}, 2, 3, 600, TOP, told=False)
    assert taken["wrong (a pit at or beyond the sensor's top)"] == 1, taken


def test_computer_players_moves_carried_out_at_a_table_with_full_pits_are_taken() -> None:
    """A computer player's move the table carries out is compared as the sensors show it: taken
    once the board shows it, and a move between full pits (nothing a sensor can see) on ``confirm``.
    The LEDs light only what the sensors can show still to be done. Sensors counting to 3 make
    such moves common; the moves are random legal ones, handed in as the computer's decisions."""
    top = 3
    s = session_for("contigo", seed=4, options={"win": "five"})
    s.new_game("contigo", {"win": "five"}, 2, 4, ["bot:easy", "bot:easy"])  # the board as it was: set up
    ceiling = dict.fromkeys(calibrated().sensing_max(), top)
    s.referee.sensing(ceiling)
    taken = Counter[str]()
    for state, text, after in random_moves(s, 4, 300):
        s.decided(len(s.match.record.actions), text)
        scene = s.scene()
        shown = {c for c, _ in board_diff(saturated(state.physical_view(), ceiling), after.physical_view(), ceiling)}
        assert set(scene.lift) | set(scene.place) == shown  # a full pit staying full is not lit
        show(s, saturated(after.physical_view(), ceiling))
        verdict = s.judge().verdict
        assert verdict is not None
        if verdict.kind == "progress":
            assert verdict.actions == (text,) and not shown, verdict  # nothing to see: the table confirms
            s.button("confirm")
        else:
            assert verdict.kind == "applied", verdict
        assert s.state.to_text() == after.to_text()
        taken[verdict.kind] += 1
    assert taken["applied"] >= 100 and taken["progress"] >= 5, taken
