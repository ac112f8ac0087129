"""`arbitro layout` on a board wired otherwise: the recorder finds the wiring, and the recorded
layout then referees a game whose moves are made on the real (secret) wiring."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from controller.app import build_service
from controller.config import Config
from controller.games import CHANCE, get_game
from controller.hands import Hands
from controller.layouts import reference_layout
from controller.tools.board import BoardLink
from controller.tools.record import Recorder
from firmware_bridge.sim import SimulatedBoard
from hardware.layout import load_layout
from hardware.leds import LedStrip, RecordingPixels
from tests.tools.builder import Builder


def scrambled(game: str, seed: int = 7) -> dict[str, int]:
    """The reference board's elements on other sensors of the same kind (a board wired otherwise)."""
    ref = reference_layout(get_game(game))
    rng = random.Random(seed)
    wiring: dict[str, int] = {}
    for kind in {k for k, _ in ref.blocks}:
        names = [c for c, s in ref.sensor_of.items() if ref.kind_of_sensor(s) == kind]
        sensors = [ref.sensor_of[c] for c in names]
        rng.shuffle(sensors)
        wiring.update(zip(names, sensors, strict=True))
    assert wiring != ref.sensor_of
    return wiring


class WiredHands(Hands):
    """Hands at a table whose sensors are wired as ``wiring`` says, whatever the service's layout says."""

    def __init__(self, service: Any, sim: SimulatedBoard, wiring: dict[str, int]) -> None:
        super().__init__(service, sim)
        self.wiring = wiring

    def set_channels(self, changes: dict[str, int]) -> None:
        for channel in sorted(changes, key=lambda c: (changes[c] > 0, c)):  # lifts first
            self.sim.set(self.wiring[channel], changes[channel])


def wait(service: Any, predicate: Any, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if service.read(predicate):
            return
        time.sleep(0.003)
    raise TimeoutError(f"waited {timeout}s for {what}; verdict {service.read(lambda s: s.verdict)}")


def test_recorded_layout_finds_the_wiring_and_referees_a_game(tmp_path: Path) -> None:
    game = get_game("contigo")
    base = load_layout("contigo")
    wiring = scrambled("contigo")
    sim = SimulatedBoard(base.blocks, board_kind="contigo-mine")
    try:
        sim.set(wiring["sq:a1"], 3)  # left on the board: the recorder has it cleared first
        builder = Builder(sim, wiring)
        board = BoardLink(sim.url)
        board.start()
        strip = LedStrip(RecordingPixels(base.led_count))
        try:
            layout = Recorder(game, base, board, strip, builder, timeout=5).run()
        finally:
            board.close()
        assert layout.sensor_of == wiring
        assert layout.board_kind == "contigo-mine" and layout.blocks == base.blocks
        # each element's LED lit alone, in the game's order, then all off
        lit = [[i for i in range(strip.n) if frame[3 * i : 3 * i + 3] != b"\0\0\0"]
               for frame in strip.pixels.transmitted]
        assert lit == [base.leds_of[c.name] for c in Recorder(game, base, board, strip, builder).elements()] + [[]]

        path = tmp_path / "mine.json"
        path.write_text(json.dumps(layout.to_dict(), indent=1))
        assert load_layout(path).sensor_of == wiring

        # The recorded layout referees a game played on the real wiring.
        config = Config.from_dict({"board": {"id": "mine", "game": "contigo", "layout": str(path), "seed": 0},
                                   "sensors": {"debounce_ms": 25.0}, "inputs": {"pin_factory": "mock"},
                                   "mqtt": {"enabled": False}})
        service = build_service(config, sensor_url=sim.url)
        hands = WiredHands(service, sim, wiring)
        hands.set_channels({c: v for c, v in service.session.state.physical_view().items() if v})
        service.start()
        try:
            wait(service, lambda s: s.board_known and s.verdict.kind == "in_sync", "the board to be read")
            for _ in range(4):  # who starts, then pawn and bead moves
                state = service.read(lambda s: s.state)
                before = service.read(lambda s: len(s.match.record.actions))
                if state.current_player == CHANCE:
                    hands.press("roll")
                else:
                    assert hands.enact(state, state.legal_actions()[0])
                wait(service, lambda s, n=before: len(s.match.record.actions) > n, "the referee to take the move")
                if state.current_player == CHANCE:
                    expected = service.read(lambda s: s.referee.expected())
                    sensed = service.read(lambda s: dict(s.sensed))
                    hands.set_channels({c: v for c, v in expected.items() if sensed.get(c, 0) != v})
            actions = service.read(lambda s: list(s.match.record.actions))
            assert len(actions) == 4 and "a1-a4" in actions, actions  # pawn moves, seen on the real wiring
            assert service.read(lambda s: s.verdict.kind) in ("applied", "in_sync")
        finally:
            service.stop()
            if service.inputs is not None:
                service.inputs.close()
    finally:
        sim.close()
