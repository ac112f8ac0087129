"""``arbitro layout``: record the layout of a board wired otherwise.

For every element of the game (in the game's channel order), the recorder lights that element's
LEDs (as the base layout places them: LED chains are laid along the board and rarely rewired),
asks the builder to put a piece (or one bead) on it, waits for the sensor that changes, and asks
for it to be taken off again. The board's blocks and kind come from its HELLO; LEDs, encoders,
buttons and firmware settings from the base layout (the reference build by default). The result
is checked as ``arbitro run`` would check it (``Layout.from_dict``, ``controller.layouts.check_game`` for every
configuration of the game) before it is written.
"""

from __future__ import annotations

from typing import Any

from controller.games import ChannelKind, Game
from controller.games.base import Phrase
from controller.layouts import MCU_KINDS, check_game
from controller.tools.board import BoardLink
from controller.tools.console import CLEAR, ENTER_WHEN_EMPTY, Console, Prompt
from controller.words import listing
from hardware.layout import Layout, LayoutError
from hardware.leds import OFF, LedStrip

PUT_BEAD = Phrase("tools.layout.put_bead", "[{n}/{of}] put one bead in {element} (lit)")
PUT_PIECE = Phrase("tools.layout.put_piece", "[{n}/{of}] put a piece on {element} (lit)")
NO_ANSWER = Phrase("tools.layout.no_answer", "no sensor answered for {element}: [r]etry, [s]kip, [q]uit?")
FOUND = Phrase("tools.layout.found", "  {element} = sensor {sensor}; take it off")
STILL_READS = Phrase("tools.layout.still_reads", "sensor {sensor} still reads {value}: take the piece off")

WHITE = (255, 255, 255)


class Recorder:
    """Records a layout; ``run()`` returns it (or raises ``LayoutError``). ``timeout``: seconds to
    wait for a sensor before asking whether to try again, skip the element or give up."""

    def __init__(self, game: Game, base: Layout, board: BoardLink, strip: LedStrip, console: Console, *,
                 timeout: float = 120.0) -> None:
        self.game = game
        self.base = base
        self.board = board
        self.strip = strip
        self.console = console
        self.timeout = timeout

    def elements(self) -> list[Any]:
        """The game's sensor channels over every configuration (as the reference layout has them)."""
        union: dict[str, Any] = {}
        for options, players in self.game.configurations():
            for c in self.game.channels(options, players):
                union.setdefault(c.name, c)
        return [c for c in union.values() if c.kind != ChannelKind.OFFSET]

    def light(self, leds: list[int]) -> None:
        frame = [OFF] * self.strip.n
        for i in leds:
            if 0 <= i < self.strip.n:
                frame[i] = WHITE
        self.strip.show(frame)

    def run(self) -> Layout:
        hello = self.board.hello
        assert hello is not None, "start the board link first"
        blocks = [(str(k), int(n)) for k, n in hello.blocks]
        kinds = [k for k, n in blocks for _ in range(n)]
        self.console.say(Prompt(self.console.words(CLEAR()), "clear"))
        self.console.ask(self.console.words(ENTER_WHEN_EMPTY()))
        rest = self.board.sync()
        stuck = {s for s, v in enumerate(rest) if v}
        if stuck:
            shown = [str(s) for s in sorted(stuck)[:20]] + ([f"{len(stuck) - 20} more"] if len(stuck) > 20 else [])
            self.console.say(f"sensor{'s' if len(stuck) > 1 else ''} {listing(shown)} read something on an "
                             "empty board: left out (stuck?)")
        sensor_of: dict[str, int] = {}
        elements = self.elements()
        for n, c in enumerate(elements, 1):
            want = MCU_KINDS[c.kind]
            put = PUT_BEAD if c.kind == ChannelKind.COUNT else PUT_PIECE
            self.light(self.base.leds_of.get(c.name, []))
            while True:
                self.console.say(Prompt(self.console.words(put(n=n, of=len(elements), element=c.name)), "place",
                                        c.name, 1))
                taken = set(sensor_of.values()) | stuck
                got = self._wait_for_sensor(taken)
                if got is None:
                    answer = self.console.ask(self.console.words(NO_ANSWER(element=c.name))).lower()
                    if answer.startswith("s"):
                        break
                    if answer.startswith("q"):
                        raise LayoutError(f"recording stopped at {c.name}")
                    continue
                if kinds[got] != want:
                    self.console.say(f"sensor {got} is a {kinds[got]} input; {c.name} needs a {want} sensor")
                    self._wait_rest(got)
                    continue
                sensor_of[c.name] = got
                self.console.say(Prompt(self.console.words(FOUND(element=c.name, sensor=got)), "lift", c.name, 0))
                self._wait_rest(got)
                break
        self.light([])
        return self._layout(hello.board_kind, blocks, sensor_of)

    def _wait_for_sensor(self, taken: set[int]) -> int | None:
        found: list[int] = []

        def fresh(values: list[int]) -> bool:
            found[:] = [s for s, v in enumerate(values) if v and s not in taken]
            return bool(found)

        return found[0] if self.board.wait(fresh, self.timeout) else None

    def _wait_rest(self, sensor: int) -> None:
        while not self.board.wait(lambda v: v[sensor] == 0, self.timeout):
            self.console.say(self.console.words(STILL_READS(sensor=sensor, value=self.board.values[sensor])))

    def _layout(self, board_kind: str, blocks: list[tuple[str, int]], sensor_of: dict[str, int]) -> Layout:
        data = self.base.to_dict()
        channels: dict[str, Any] = {}
        for name, sensor in sensor_of.items():
            channels[name] = {"sensor": sensor, "leds": self.base.leds_of.get(name, [])}
        for name, spec in data["channels"].items():
            if "encoder" in spec:
                channels[name] = spec
        data.update(board_kind=board_kind, blocks=[list(b) for b in blocks], channels=channels)
        data.pop("calibration", None)  # measured on other sensors: run `arbitro calibrate` again
        layout = Layout.from_dict(data)
        for options, players in self.game.configurations():
            check_game(layout, self.game, options, players)
        return layout
