"""The LED strip's writer: frames leave on a worker thread, the latest one always, never late."""

from __future__ import annotations

import queue
import time
from pathlib import Path
from typing import Any

import pytest

from controller.config import Config, ConfigError
from controller.games import CHANCE
from controller.ledview import OFF, PATTERNS, LedScene, game_colours, player_colour, player_lit
from controller.lights import Lights
from controller.mqtt import Command
from controller.service import Service
from controller.wiring import Wiring
from hardware.layout import load_layout
from hardware.leds import WIRE_SECONDS_PER_LED, LedStrip, RecordingPixels
from tests.support.table import Table, expected_targets
from tests.support.waiting import wait_until

RED, GREEN, BLUE = (9, 0, 0), (0, 9, 0), (0, 0, 9)


def on_wire(colour: tuple[int, int, int], n: int) -> bytes:
    """What the strip receives for ``n`` LEDs of ``colour``: GRB order."""
    r, g, b = colour
    return bytes((g, r, b)) * n


def test_a_wire_strip_takes_the_wire_time_of_a_ws2812() -> None:
    pixels = RecordingPixels(1000, wire=True)
    LedStrip(pixels).show([RED] * 1000)  # not started: written before show returns
    began, ended = pixels.transmit_times[-1]
    assert ended - began >= 1000 * WIRE_SECONDS_PER_LED  # 30 ms for 1000 LEDs
    assert pixels.transmitted == [on_wire(RED, 1000)]


def test_show_returns_at_once_and_a_superseded_frame_is_dropped_never_sent_late() -> None:
    n = 2000  # 60 ms on the wire: the worker is still sending the first frame when the others come
    pixels = RecordingPixels(n, wire=True)
    strip = LedStrip(pixels).start()
    try:
        strip.show([RED] * n)
        wait_until(lambda: strip.writing and not strip.waiting, "the worker to take the first frame", poll=0.0005)
        handed = time.monotonic()
        assert strip.show([GREEN] * n) and strip.show([BLUE] * n)
        assert time.monotonic() - handed < n * WIRE_SECONDS_PER_LED / 2, "show waited for the wire"
        assert strip.last == (BLUE,) * n
        assert strip.flush()
        assert pixels.transmitted == [on_wire(RED, n), on_wire(BLUE, n)], "green was superseded: never sent"
        assert strip.dropped == 1
    finally:
        strip.stop()


def test_stop_sends_what_was_handed_over_then_writes_directly() -> None:
    pixels = RecordingPixels(10)
    strip = LedStrip(pixels).start()
    strip.show([RED] * 10)
    strip.stop()
    assert pixels.transmitted[-1] == on_wire(RED, 10)
    strip.show([BLUE] * 10)  # no worker: on the strip before show returns
    assert pixels.transmitted[-1] == on_wire(BLUE, 10)


def test_the_service_tells_a_move_while_its_leds_are_still_on_the_wire(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """LEDs start, then the journal, then the events: with a strip that takes Jeocinco's real wire
    time (653 LEDs, about 20 ms), a placement is journaled and told before its frame has left."""
    # The placement is held (another slot could follow) and shown at once: a 1 ms commit window tells
    # it while the frame that shows it is still on the wire. The sensor board's own clock (which the
    # commit waits for: tests/test_sensor_time.py) is not this test's: it agrees at once here.
    monkeypatch.setattr(Service, "_still_in_sensor_time", lambda self: True)
    # A wire ten times a real one's: a loaded machine that keeps the loop off a core for the 20 ms of a
    # real frame does not make it look as if the loop had waited (what it may not do is unchanged).
    monkeypatch.setattr("hardware.leds.WIRE_SECONDS_PER_LED", 10 * WIRE_SECONDS_PER_LED)
    with Table("jeocinco", journal=str(tmp_path / "journal.sqlite"), leds="sim-wire", debounce_ms=1.0,
               commit_ms=1.0) as table:
        service = table.service
        pixels = service.strip.pixels
        assert pixels.wire_seconds > 0.019
        while not (table.state.current_player >= 0 and table.state.phase == "place"):
            table.play(table.state.legal_actions()[0])  # the opening rolls, the colours, a roll
        told: list[tuple[float, bool, int]] = []

        def watch(event: dict[str, Any]) -> None:  # in the loop, after the journal holds the event
            if event["type"] == "action":
                assert service.journal is not None
                journaled = service.journal.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
                told.append((time.monotonic(), service.strip.writing or service.strip.waiting, journaled))

        service.call(lambda: service.watchers.append(watch))
        assert service.strip.flush()
        moves, sent_before = table.moves, len(pixels.transmit_times)
        table.play(table.state.legal_actions()[0])  # a piece placed: the LEDs light otherwise
        assert service.strip.flush()
        (at, on_its_way, journaled), = told
        assert on_its_way, "the loop waited for the LED wire before telling the move"
        assert journaled == moves + 1, "the move was told before the journal held it"
        started = [began for began, _ in pixels.transmit_times[sent_before:]]
        assert started and min(started) <= at, "the move was told before its LEDs started"


def test_a_request_is_answered_after_its_leds_started_and_the_journal_holds_it(tmp_path: Path) -> None:
    """The order LEDs start, journal, answer, for a request, with a strip that blocks for the wire."""
    with Table("contigo", journal=str(tmp_path / "journal.sqlite"), leds="sim-wire") as table:
        service = table.service
        pixels = service.strip.pixels
        assert table.state.current_player == CHANCE  # who starts: the roll button's, or a request's
        assert service.strip.flush()
        sent = len(pixels.transmit_times)
        journal = service.journal
        assert journal is not None
        answered: queue.Queue[tuple[float, bool, int, object]] = queue.Queue()

        def reply(ok: bool, result: object) -> None:  # in the loop
            journaled = journal.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
            answered.put((time.monotonic(), ok, journaled, result))

        service.post(Command("roll", {}, reply))
        at, ok, journaled, result = answered.get(timeout=10)
        assert ok and journaled == 1, (result, "answered before the journal held the move")
        assert service.strip.flush()  # a frame is recorded once it has left
        started = [began for began, _ in pixels.transmit_times[sent:]]
        assert started and min(started) <= at, "answered before the move's LEDs started"


class CountingPixels(RecordingPixels):
    """A simulated strip that counts the LEDs set in its buffer (each is encoded in pure Python)."""

    def __init__(self, n: int, **kwargs: Any) -> None:
        super().__init__(n, **kwargs)
        self.sets = 0

    def __setitem__(self, index: Any, value: Any) -> None:
        self.sets += 1
        super().__setitem__(index, value)


def test_a_frame_encodes_only_the_leds_that_changed_and_sends_them_all() -> None:
    pixels = CountingPixels(649, brightness=0.5)  # Jeocinco's strip, dimmed: brightness applies to every LED
    strip = LedStrip(pixels).start()
    try:
        frame = [RED] * 649
        strip.show(frame)
        strip.flush()
        assert pixels.sets == 649  # the first frame: every LED
        frame[10], frame[600] = GREEN, BLUE  # a move: two LEDs change
        strip.show(frame)
        strip.flush()
        assert pixels.sets == 649 + 2
        full = CountingPixels(649, brightness=0.5)
        LedStrip(full).show(frame)  # a fresh strip, every LED written
        assert pixels.transmitted[-1] == full.transmitted[-1]
        strip.resize(649)  # same size: nothing changes
        assert pixels.sets == 651
    finally:
        strip.stop()


def test_a_strip_opened_again_is_written_whole() -> None:
    made: list[CountingPixels] = []

    def make(n: int) -> CountingPixels:
        made.append(CountingPixels(n))
        return made[-1]

    strip = LedStrip(make(4), make)
    strip.show([RED] * 4)
    strip.resize(5)
    strip.show([RED] * 5)
    assert made[-1].sets == 5 and made[-1].transmitted[-1] == on_wire(RED, 5)


def lit_ticks(table: Table, leds: set[int], colour: tuple[int, int, int], ticks: int) -> list[bool]:
    """Whether ``leds`` are all lit in ``colour`` after each of ``ticks`` blinks, turned in the loop
    (the table's own blink is a minute away: nothing else turns it)."""
    service = table.service
    seen = []
    for _ in range(ticks):
        service.call(service.lights.blink)
        assert service.strip.flush()
        frame = table.frame()
        assert all(frame[i] in (colour, OFF) for i in leds), "a target in another colour"
        seen.append(all(frame[i] == colour for i in leds))
    return seen


def test_each_player_blinks_his_own_pattern_beside_his_colour() -> None:
    """``leds.patterns``: the acting player's targets and the whose-turn LED follow his pattern
    (red steady, blue a slow blink in two-player Contigo); nothing else changes."""
    patterns = ["steady", "slow", "double", "triple"]
    with Table("contigo", lights={"blink_hz": 0.01, "patterns": patterns}) as table:
        service = table.service
        table.play(table.state.legal_actions()[0])  # who starts
        seen_players: set[int] = set()
        while len(seen_players) < 2:
            state = table.state
            if state.current_player >= 0 and state.current_player not in seen_players:
                player = state.current_player
                colour = player_colour(player, game_colours(state))
                table.idle()
                turn_led = service.wiring.layout.status_leds[0]
                targets = {i for c in expected_targets(table.service.session.game, state)
                           for i in service.wiring.layout.leds_of.get(c, ())}
                assert targets
                tick = service.call(lambda: service.lights.tick)
                lit = lit_ticks(table, targets | {turn_led}, colour, 16)
                pattern = PATTERNS[patterns[player]]
                assert lit == [pattern[(tick + 1 + k) % 8] for k in range(16)], (player, lit)
                seen_players.add(player)
            table.play(table.state.legal_actions()[0])


def test_without_patterns_every_player_is_steady_and_a_bad_pattern_is_refused() -> None:
    assert PATTERNS["steady"] == (True,) * 8 and not player_lit(["slow"], 0, 4) and player_lit([], 0, 4)
    assert player_lit(["slow"], -1, 4)  # chance (amber) and a game over follow no player's pattern
    assert [player_lit(["steady", "double"], 3, t) for t in range(8)] == list(PATTERNS["double"])  # past the last
    with pytest.raises(ConfigError, match=r"leds\.patterns: each must be one of steady, slow, double, triple"):
        Config.from_dict({"leds": {"patterns": ["steady", "disco"]}})
    with Table("contigo", lights={"blink_hz": 0.01}) as table:
        table.play(table.state.legal_actions()[0])
        state = table.state
        colour = player_colour(state.current_player, game_colours(state))
        table.idle()
        targets = {i for c in expected_targets(table.service.session.game, state)
                   for i in table.service.wiring.layout.leds_of.get(c, ())}
        assert targets and lit_ticks(table, targets, colour, 8) == [True] * 8


def test_a_scene_shown_again_is_not_drawn_again_but_what_changes_is() -> None:
    """A held move, once taken, shows the scene it showed while held: its frame is not worked out
    again on the move's path (``Lights.draw``); a blink, another scene or a strip opened again are."""
    layout = load_layout("contigo")
    made: list[CountingPixels] = []

    def make(n: int) -> CountingPixels:
        made.append(CountingPixels(n))
        return made[-1]

    strip = LedStrip(make(layout.led_count), make)
    lights = Lights(strip, Wiring(layout, "contigo", layout_for=load_layout), blink_hz=1.0)
    channel = next(iter(layout.leds_of))
    lights.show(LedScene(player=0, targets={channel: 1}))
    frame, sent = lights._frame, len(made[-1].transmitted)
    lights.show(LedScene(player=0, targets={channel: 1}))  # equal, not the same object: the held move taken
    assert lights._frame is frame and len(made[-1].transmitted) == sent
    wrong = LedScene(player=1, targets={channel: 1}, violation=(channel,))  # blinks red
    lights.show(wrong)
    assert lights._frame != frame and len(made[-1].transmitted) == sent + 1
    lights.blink()
    assert len(made[-1].transmitted) == sent + 2
    shown = lights._frame
    strip.resize(layout.led_count + 1)  # another strip (its frame would not fit: only its count is checked)
    strip.resize(layout.led_count)
    lights.show(LedScene(player=1, targets={channel: 1}, violation=(channel,)))  # the same scene: the strip shows none
    assert lights._frame is shown and len(made[-1].transmitted) == 1
