"""``arbitro diagnose``: bring-up checks of a built board, every finding by the element's name.

1. The sensor board: its HELLO against the layout (blocks, board kind, configuration id).
2. Stuck channels: with the board cleared, every sensor channel that reads something.
3. Live sensors: the builder passes a magnet (a piece) over every element; each change is
   printed by name as it comes; channels that never changed are named as silent. Each stuck or
   silent channel is located on the wiring: its chip and input and the Pico pin that reads it
   (``where``: "pit:e-1: mux 2, input 5, Pico GP7"), from the firmware configuration the layout
   flashes.
4. LEDs: a chase (each LED lit in turn, its index printed as it lights); then every LED at once
   and, if one is dark, a bisection: the first half lit, yes or no, then a quarter..., naming the
   first dead LED and the element it sits under in at most ceil(log2 N) + 1 questions; then each
   game element's LEDs lit in turn with its name, and asked whether they sat under it.
5. Buttons and encoders (gpiozero, the layout's pins): each button must be pressed, each ring
   turned; those not seen are named.

``run()`` returns a ``Report``; ``arbitro diagnose`` exits 1 when it has problems.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from controller.games.base import Phrase
from controller.i18n import say
from controller.tools.board import BoardLink
from controller.tools.console import CLEAR, ENTER_WHEN_EMPTY, Console, Prompt
from controller.words import listing
from firmware_bridge.boardconfig import as_module
from firmware_bridge.firmware import arbitro_fw
from hardware.layout import Layout, LayoutError, channel_blocks
from hardware.leds import OFF, LedStrip

SWEEP = Phrase("tools.diagnose.sweep", "Now put a piece on (or pass a magnet over) every element, one after another, "
               "and take it off again; each change is shown by name.")
ENTER_WHEN_TOUCHED = Phrase("tools.diagnose.touched", "Press Enter when every element has been touched.")
LEDS_IN_TURN = Phrase("tools.diagnose.leds_in_turn",
                      "LEDs: each of the {count} LEDs lights white in turn, in strip order.")
LED_LIT = Phrase("tools.diagnose.led_lit", "  LED {index} ({where})")
ALL_LIT = Phrase("tools.diagnose.all_lit", "Every LED is lit now: are all {count} of them white? [y/n]")
SOME_LIT = Phrase("tools.diagnose.some_lit", "LEDs {first} to {last} are lit now: are all of them white? [y/n]")
DEAD_LED = Phrase("tools.diagnose.dead_led", "  first dead LED: {index} ({where}); the data line breaks there "
                  "or the LED itself is dead")
LEDS_BY_NAME = Phrase("tools.diagnose.leds_by_name", "LEDs: now each game element's LEDs, with its name.")
LEDS_RIGHT = Phrase("tools.diagnose.leds_right", "Did each element's LEDs light under the element named? [y/n]")
SR_INPUT = Phrase("tools.diagnose.sr_input", "shift register {number}, input {input}, Pico GP{pin}")
MUX_INPUT = Phrase("tools.diagnose.mux_input", "mux {number}, input {input}, Pico GP{pin}")
PRESS = Phrase("tools.diagnose.press", "press the {button} button")
TURN = Phrase("tools.diagnose.turn", "turn {ring} by one space")

WHITE = (255, 255, 255)


@dataclass
class Report:
    firmware: str = ""
    problems: list[str] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    silent: list[str] = field(default_factory=list)
    seen: dict[str, int] = field(default_factory=dict)
    leds_ok: bool | None = None
    dead_led: int | None = None
    led_questions: int = 0
    where: dict[str, str] = field(default_factory=dict)  # a stuck or silent channel -> its chip, input, pin
    inputs_missing: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.problems or self.stuck or self.silent or self.inputs_missing or self.leds_ok is False
                    or self.dead_led is not None)


def where(layout: Layout, sensor: int, language: str = "en") -> str:
    """Where sensor channel ``sensor`` is wired, from the firmware configuration ``layout`` flashes:
    presence channel k (counted among the presence ones) is input H..A (k % 8 = 0 is H) of
    shift register k // 8 + 1 from the Pico, read on the chain's data pin; analog channel j is
    input j % 16 of multiplexer j // 16 + 1, selected by its enable pin."""
    config = arbitro_fw.config_from(as_module(layout.board_config()))
    kinds = [kind for kind, count in layout.blocks for _ in range(count)]
    presence = kinds[:sensor].count("presence")
    if kinds[sensor] == "presence":
        return say(SR_INPUT(number=presence // 8 + 1, input="HGFEDCBA"[presence % 8],
                              pin=config["sr_miso_pin"]), language)
    j = sensor - presence
    return say(MUX_INPUT(number=j // 16 + 1, input=j % 16, pin=config["mux_enable_pins"][j // 16]),
               language)


class Diagnosis:
    """See the module docstring. ``inputs``: a ``hardware.inputs.TableInputs`` (or None to skip step 5)
    whose ``post`` this binds; ``pace``: seconds each LED stays lit; ``timeout``: seconds to wait
    for each button or ring."""

    def __init__(self, layout: Layout, board: BoardLink, strip: LedStrip, console: Console, *,
                 inputs: Any = None, pace: float = 0.3, timeout: float = 30.0) -> None:
        self.layout = layout
        self.board = board
        self.strip = strip
        self.console = console
        self.inputs = inputs
        self.pace = pace
        self.timeout = timeout
        self.report = Report()

    def name(self, sensor: int) -> str:
        return self.layout.channel_of.get(sensor, f"sensor {sensor} (no channel)")

    def run(self) -> Report:
        self.check_firmware()
        self.check_sensors()
        self.check_leds()
        if self.inputs is not None:
            self.check_inputs()
        r = self.report
        self.console.say("diagnosis: " + ("all good" if r.ok else "; ".join(self.summary())))
        return r

    def summary(self) -> list[str]:
        r = self.report
        out = list(r.problems)
        if r.stuck:
            out.append(f"stuck: {', '.join(self.located(s.split('=')[0], s) for s in r.stuck)}")
        if r.silent:
            out.append(f"silent: {', '.join(self.located(c, c) for c in r.silent)}")
        if r.dead_led is not None:
            out.append(f"first dead LED: {r.dead_led} ({self.led_place(r.dead_led)})")
        if r.leds_ok is False:
            out.append("LEDs: the builder saw something wrong")
        if r.inputs_missing:
            out.append(f"not seen: {', '.join(r.inputs_missing)}")
        return out

    def located(self, channel: str, text: str) -> str:
        return f"{text} ({self.report.where[channel]})" if channel in self.report.where else text

    def led_place(self, index: int) -> str:
        """What an LED sits under: the elements whose LEDs include it, the status bar, or nothing."""
        under = [name for name, leds in self.layout.leds_of.items() if index in leds]
        if under:
            return listing(under)
        return "status bar" if index in self.layout.status_leds else "no element"

    def check_firmware(self) -> None:
        hello = self.board.hello
        assert hello is not None, "start the board link first"
        self.report.firmware = hello.firmware
        self.console.say(f"sensor board: {hello.board_kind}, {hello.firmware}, {channel_blocks(hello.blocks)}")
        try:
            self.layout.check_firmware(hello)
        except LayoutError as exc:
            self.report.problems.append(str(exc))
            self.console.say(f"  PROBLEM: {exc}")

    def check_sensors(self) -> None:
        self.console.say(Prompt(self.console.words(CLEAR()), "clear"))
        self.console.ask(self.console.words(ENTER_WHEN_EMPTY()))
        rest = self.board.sync()
        n = self.layout.sensor_count
        self.report.stuck = [f"{self.name(s)}={v}" for s, v in enumerate(rest[:n]) if v]
        for s, v in enumerate(rest[:n]):
            if v:
                self.report.where[self.name(s)] = where(self.layout, s, self.console.language)
                self.console.say(f"  stuck: {self.name(s)}={v}: {self.report.where[self.name(s)]}")
        seen = self.report.seen

        def changed(sensor: int, value: int) -> None:
            seen[self.name(sensor)] = seen.get(self.name(sensor), 0) + 1
            self.console.say(f"  {self.name(sensor)} = {value}")

        self.board.on_change = changed
        live = threading.Event()
        live.set()

        def follow() -> None:  # shows changes while the main thread waits for Enter
            while live.is_set():
                self.board.pump(0.05)

        follower = threading.Thread(target=follow, name="diagnose-live", daemon=True)
        follower.start()
        self.console.say(Prompt(self.console.words(SWEEP()), "sweep"))
        try:
            self.console.ask(self.console.words(ENTER_WHEN_TOUCHED()))
        finally:
            live.clear()
            follower.join()
        self.board.sync()  # every change sent before Enter is in
        self.board.on_change = None
        named = set(self.layout.sensor_of)
        self.report.silent = sorted(c for c in named if c not in seen)
        self.console.say(f"  {len(seen)} of {len(named)} channels answered")
        for c in self.report.silent:
            self.report.where.setdefault(c, where(self.layout, self.layout.sensor_of[c], self.console.language))
            self.console.say(f"  silent: {c}: {self.report.where[c]}")

    def check_leds(self) -> None:
        n = self.strip.n
        self.console.say(Prompt(self.console.words(LEDS_IN_TURN(count=n)), "look"))
        for i in range(n):  # the chase: the builder sees where the light stops
            self.console.say(self.console.words(LED_LIT(index=i, where=self.led_place(i))))
            self._show([i])
        self.report.dead_led = self.first_dead_led()
        if self.report.dead_led is not None:
            d = self.report.dead_led
            self.console.say(self.console.words(DEAD_LED(index=d, where=self.led_place(d))))
        self.console.say(Prompt(self.console.words(LEDS_BY_NAME()), "look"))
        for name, leds in self.layout.leds_of.items():
            if leds:
                self.console.say(f"  {name}: LED{'s' if len(leds) > 1 else ''} {listing([str(i) for i in leds])}")
                self._show(leds)
        self._show([])
        answer = self.console.ask(self.console.words(LEDS_RIGHT())).lower()
        self.report.leds_ok = not answer.startswith("n")

    def first_dead_led(self) -> int | None:
        """Every LED lit: all white? If not, halve the range that holds the first dark one until one
        LED is left: at most ceil(log2 N) + 1 questions."""
        n = self.strip.n
        if n == 0 or self._lit_ok(0, n, self.console.words(ALL_LIT(count=n))):
            return None
        lo, hi = 0, n  # the first dead LED is in lo..hi-1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self._lit_ok(lo, mid, self.console.words(SOME_LIT(first=lo, last=mid - 1))):
                lo = mid
            else:
                hi = mid
        return lo

    def _lit_ok(self, first: int, end: int, question: str) -> bool:
        self._show(list(range(first, end)), hold=False)
        self.report.led_questions += 1
        return not self.console.ask(Prompt(question, "judge", value=end - first)).lower().startswith("n")

    def _show(self, leds: list[int], hold: bool = True) -> None:
        frame = [OFF] * self.strip.n
        for i in leds:
            frame[i] = WHITE
        self.strip.show(frame)
        if self.pace and leds and hold:
            time.sleep(self.pace)  # for the builder's eyes, not for any condition

    def check_inputs(self) -> None:
        from hardware.inputs import ButtonEvent, EncoderEvent

        events: queue.Queue[object] = queue.Queue()
        self.inputs.post = events.put
        for name in self.layout.buttons:
            self.console.say(Prompt(self.console.words(PRESS(button=name)), "press", name))
            if not self._expect(events, lambda e, name=name: isinstance(e, ButtonEvent) and e.name == name):
                self.report.inputs_missing.append(f"button {name}")
        for enc in self.layout.encoders:
            self.console.say(Prompt(self.console.words(TURN(ring=enc.channel)), "turn", enc.channel, 1))
            if not self._expect(events, lambda e, c=enc.channel: isinstance(e, EncoderEvent) and e.channel == c):
                self.report.inputs_missing.append(f"encoder {enc.channel}")

    def _expect(self, events: queue.Queue[object], match: Any) -> bool:
        deadline = time.monotonic() + self.timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                if match(events.get(timeout=left)):
                    return True
            except queue.Empty:
                break
        return False
