"""A whole simulated table for tests: the simulated sensor board (real firmware on a pty), the
service with the host link, a recording LED strip, gpiozero's mock pins, and hands to play with."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from controller.app import build_service
from controller.config import Config
from controller.games import CHANCE, ChannelKind, Game, State, get_game
from controller.hands import Hands, close_table
from controller.ledview import player_colour
from controller.referee import Verdict
from controller.service import Service
from firmware_bridge.sim import SimulatedBoard
from hardware.layout import load_layout
from hardware.leds import RGB


class Table:
    def __init__(self, game: str, *, options: dict[str, Any] | None = None, players: int | None = None,
                 seed: int = 1, mqtt_port: int | None = None, debounce_ms: float = 25.0, commit_ms: float = 25.0,
                 allow_takeback: bool = True, journal: str = "", moved: dict[str, int] | None = None,
                 leds: str = "sim", sound: dict[str, Any] | None = None,
                 language: str = "en", seats: list[str] | None = None,
                 lights: dict[str, Any] | None = None) -> None:
        """``moved``: channels that read otherwise than the game says when the table is switched on;
        ``leds``: the strip's back end (``"sim-wire"`` takes a real strip's wire time); ``commit_ms``:
        short by default, for the tests' quick and sure hands (a person's need ``sensors.commit_ms``'s
        default; ``tests/test_human_pace.py`` plays with those); ``sound``: the ``[sound]`` section;
        ``language``: what the table says on MQTT (English here, where tests read its words;
        ``board.language`` is Spanish by default); ``seats``: ``board.seats`` (computer players);
        ``lights``: more of the ``[leds]`` section (``blink_hz``, ``patterns``)."""
        g = get_game(game)
        self.config = Config.from_dict({
            "board": {"id": f"t-{game}", "game": game, "seed": seed, "num_players": g.players(players),
                      "options": options or {}, "allow_takeback": allow_takeback, "language": language,
                      "seats": seats or []},
            "sensors": {"debounce_ms": debounce_ms, "commit_ms": commit_ms},
            "inputs": {"pin_factory": "mock"},
            "leds": {"backend": leds, **(lights or {})},
            "mqtt": {"enabled": mqtt_port is not None, "port": mqtt_port or 1883},
            "journal": {"path": journal},
            "sound": sound or {},
        })
        self.layout = load_layout(game)
        self.sim = SimulatedBoard(self.layout.blocks, board_kind=self.layout.board_kind)
        self.service = build_service(self.config, sensor_url=self.sim.url)
        self.hands = Hands(self.service, self.sim)
        session = self.service.session  # the loop has not started: nothing races these reads
        start = {**session.state.physical_view(), **(moved or {})}
        self.hands.set_channels({c: v for c, v in start.items() if session.kinds[c] != ChannelKind.OFFSET and v})
        self.service.start()
        self.wait(lambda s: s.board_known and s.verdict.kind == ("setup" if moved else "in_sync"),
                  "the board to be read")

    def close(self) -> None:
        close_table(self.service, self.sim)

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading the service through its loop ---------------------------------------------------

    def wait(self, predicate: Callable[[Any], object], what: str, timeout: float = 10.0, *, loop: bool = False) -> None:
        """Until ``predicate(session)`` holds (``loop``: ``predicate(service)``, the loop itself)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.service.call(lambda: predicate(self.service if loop else self.service.session)):
                return
            time.sleep(0.003)  # poll interval
        v = self.service.call(lambda: self.service.session.verdict)
        raise TimeoutError(f"waited {timeout}s for {what}; verdict {v}")

    @property
    def state(self) -> State:
        state: State = self.service.call(lambda: self.service.session.state)
        return state

    @property
    def moves(self) -> int:
        moves: int = self.service.call(lambda: len(self.service.session.match.record.actions))
        return moves

    @property
    def verdict(self) -> Verdict:
        verdict: Verdict = self.service.call(lambda: self.service.session.verdict)
        return verdict

    def idle(self, quiet: float = 0.0, timeout: float = 10.0) -> None:
        """Wait until the table is at rest: the simulated board has reported every sensor's value,
        the service senses exactly those on every mapped channel (and every ring's offset), no
        judgement of the board is pending and no event is queued.

        ``quiet`` is input timing, not a wait for the service: the table is also left untouched
        until ``quiet`` seconds have passed since the last sensor reading the service took (a
        piece held in the air that long, say)."""
        assert self.sim.wait_idle(timeout), (
            f"the simulated board never reported its sensors: they read {self.sim.values()}, "
            f"it reported {self.sim.reported()}")
        try:
            self.wait(lambda service: self._unrest(service, quiet) is None, "the table to come to rest", timeout,
                      loop=True)
        except TimeoutError as exc:
            raise TimeoutError(f"{exc}; still {self.service.call(lambda: self._unrest(self.service, quiet))}") from None

    def _unrest(self, service: Service, quiet: float) -> str | None:
        """Inside the loop: what keeps the table from being at rest (see :meth:`idle`), or None."""
        s = service.session
        if not s.board_known:
            return "waiting for a snapshot of the board"
        reported = self.sim.reported()
        differ = sorted(c for c, n in service.wiring.layout.sensor_of.items() if s.sensed.get(c, 0) != reported[n])
        if differ:
            return f"sensing otherwise than the board reported on {differ[:8]}"
        rings = service.inputs.offsets() if service.inputs is not None else {}
        differ = sorted(c for c, v in rings.items() if s.sensed.get(c) != v)
        if differ:
            return f"sensing otherwise than the encoders count on {differ}"
        if quiet and service.last_sensed is not None and service.clock() - service.last_sensed < quiet:
            return f"held still for less than {quiet}s"
        if service.settle_at is not None:
            return "a judgement of the board pending"
        if service.commit_at is not None or service.commit_due:
            return "a move held until the board has been still for the commit window (in sensor time)"
        if not service.events.empty():
            return "events queued"
        if s.referee.unready:
            return "the next move table still being built (the LEDs' targets)"
        return None

    def frame(self) -> tuple[RGB, ...]:
        frame: tuple[RGB, ...] = self.service.call(lambda: self.service.strip.last)
        return frame

    def lit_in(self, colour: RGB) -> set[int]:
        return {i for i, c in enumerate(self.frame()) if c == colour}

    # -- playing -------------------------------------------------------------------------------

    def set(self, **channels: int) -> None:
        """Set channels by name, ``sq_a1=3`` meaning ``sq:a1`` (``__`` stands for ``:`` inside)."""
        self.hands.set_channels({k.replace("_", ":", 1): v for k, v in channels.items()})

    def pick(self, text: str) -> None:
        """The player takes ``text`` among the moves the board shows: ``next`` until it, then ``confirm``."""
        options, at = self.service.call(lambda: (self.service.session.choices(), self.service.session.choice))
        for _ in range((options.index(text) - at) % len(options)):
            self.hands.press("next")
        self.hands.press("confirm")

    def play(self, action: Any) -> None:
        """Carry out a legal action at the table and wait for the referee to take it."""
        state, before = self.state, self.moves
        text = state.action_to_text(action)
        if state.current_player == CHANCE:
            self.hands.press("roll")
        elif not self.hands.enact(state, action):  # the buttons offer it once the move table is built
            self.wait(lambda s: not s.referee.unready, "the move table (the moves the buttons offer)")
            self.hands.choose(text)
        def taken(s: Any) -> bool:
            return len(s.match.record.actions) > before

        def to_choose(s: Any) -> bool:  # a move the board shows only in part (a crash), or like another
            return bool(s.verdict.kind in ("progress", "ambiguous") and text in s.verdict.actions)

        self.wait(lambda s: taken(s) or to_choose(s), f"the referee to take {text}")
        if not self.service.call(lambda: taken(self.service.session)):
            self.pick(text)
            self.wait(taken, f"the referee to take {text} once chosen")
        if state.current_player == CHANCE:  # the table carries out what the die or draw says
            expected = self.service.call(self.service.session.referee.expected)
            sensed = self.service.call(lambda: dict(self.service.session.sensed))
            self.hands.set_channels({c: v for c, v in expected.items() if sensed.get(c, 0) != v})


def expected_targets(game: Game, state: State) -> set[str]:
    """Independently of the referee: every channel a legal action of the acting player puts
    something on (rings aside)."""
    before = state.physical_view()
    kinds = {c.name: c.kind for c in game.channels(state.options, state.num_players)}
    out = set()
    for action in state.legal_actions():
        if state.player_of(action) != state.current_player:
            continue
        after = state.apply(action).physical_view()
        for c, v in after.items():
            if v == before[c]:
                continue
            kind = kinds[c]
            if kind == ChannelKind.OFFSET:
                continue
            if v > before[c] or (kind == ChannelKind.PIECE and v):
                out.add(c)
    return out


__all__ = ["Table", "expected_targets", "player_colour"]
