"""What the display knows of one board, built from its MQTT messages alone (no I/O here).

``BoardModel.snapshot()`` is everything a board page or the hall draws: the public state, its SVG,
player names, the move list, what happened in words, the game clock (the state's own) and the
board's status. The private views (``player/<n>``) are kept apart and only ever leave through
``seat()``.

Events are taken once each, by their ``seq`` within the service's run: the retained
``events/recent`` window fills in what the display missed (it started late, or the broker was
away) and a repeat (a resend, or an event the window had already given) is dropped.
"""

from __future__ import annotations

import json
import time
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from controller.display.render import action_faces, board_svg, channel_points, counted_channels, player_colours
from controller.i18n import action_words

MAX_NAMES = 8
MAX_NAME_LENGTH = 40
LOG_LINES = 30


def parse_names(payload: bytes | str) -> list[str] | None:
    """A ``names`` payload (:func:`read_names`); None for one that is not."""
    try:
        return read_names(payload)
    except ValueError:
        return None


def read_names(payload: bytes | str) -> list[str]:
    """A ``names`` payload: a JSON list of at most 8 strings of at most 40 characters, none with a
    control character (a NUL, a newline, an escape: a name is drawn on pages and written in logs as
    it is); ``ValueError`` says in one line what it is not."""
    shape = f"names: a JSON list of at most {MAX_NAMES} strings of at most {MAX_NAME_LENGTH} characters"
    try:
        names = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        raise ValueError(shape) from None
    if not isinstance(names, list) or len(names) > MAX_NAMES:
        raise ValueError(shape)
    if not all(isinstance(n, str) and len(n) <= MAX_NAME_LENGTH for n in names):
        raise ValueError(shape)
    for i, name in enumerate(names):
        bad = next((ch for ch in name if unicodedata.category(ch) == "Cc"), None)
        if bad is not None:
            raise ValueError(f"names: name {i + 1} holds the control character U+{ord(bad):04X}")
    return [n.strip() for n in names]


def describe(event: dict[str, Any], names: list[str]) -> str | None:
    """An event in words, for the page's log (None: not worth a line)."""
    kind = event.get("type")

    def who(p: Any) -> str:
        if isinstance(p, int) and 0 <= p < len(names) and names[p]:
            return names[p]
        return f"player {p + 1}" if isinstance(p, int) else "a player"  # people count from 1

    if kind in ("action", "chance", "choice"):
        return None  # moves are in the move list; 'choice' says nothing a public page may show
    if "code" in event and "text" in event:  # said in the board's language, players named (controller.i18n)
        return str(event["text"])
    if kind in ("violation", "ambiguous", "setup", "refused", "error"):
        return f"{kind}: {event.get('message')}"
    if kind == "resolved":
        return "the board is put right"
    if kind == "undo":
        return f"undone: {event.get('action')}"
    if kind == "takeback":
        return f"taken back: {', '.join(event.get('actions') or [])}"
    if kind == "resign":
        return f"{who(event.get('player'))} resigned"
    if kind == "game_over":
        winners = event.get("winners") or []
        return "game over: " + (", ".join(who(p) for p in winners) + " won" if winners else "nobody won")
    if kind == "new_game":
        return f"new game: {event.get('game')}, {event.get('num_players')} players"
    if kind == "link":
        return "sensor board connected" if event.get("up") else f"sensor board lost ({event.get('reason', '')})"
    if "text" in event:  # the games' announcements: capture, tower, crash, sync, ...
        return f"{kind}: {event['text']}"
    return None  # anything newer: nothing to say yet


@dataclass
class BoardModel:
    board: str
    state: dict[str, Any] | None = None
    status: str | None = None  # the service's retained status: online / offline
    status_since: float | None = None
    names: list[str] = field(default_factory=list)
    moves: dict[int, str] = field(default_factory=dict)  # move number -> public action text
    said: dict[int, dict[str, Any]] = field(default_factory=dict)  # move number -> its words' code and params
    log: list[str] = field(default_factory=list)
    run: str | None = None  # the service run whose events these are (from events/recent)
    last_seq: int = 0  # the last event taken, in that run
    private: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> player/<n>; never in snapshot()
    _drawn: tuple[dict[str, Any] | None, str, list[str]] = (None, "", [])  # (state, svg, colours)

    # -- what arrives ---------------------------------------------------------------------------

    def on_state(self, state: dict[str, Any]) -> None:
        before = self.state
        if before is None or self._new_game(before, state):
            self.moves.clear()
            self.said.clear()
        self.state = state
        moves = int(state.get("moves") or 0)
        self._forget_after(moves)  # an undo or a takeback
        if moves and state.get("last_action") is not None:
            self.moves[moves] = str(state["last_action"])
            self._said(moves, state.get("last_action_words"))

    def _forget_after(self, moves: int) -> None:
        for n in [n for n in self.moves if n > moves]:
            del self.moves[n]
            self.said.pop(n, None)

    def _said(self, move: int, words: Any) -> None:
        """The words a move is said in (``action_words``): a page says them in its own language."""
        if isinstance(words, dict) and "code" in words:
            self.said[move] = {"code": words["code"], "params": words.get("params", {})}

    @staticmethod
    def _new_game(before: dict[str, Any], after: dict[str, Any]) -> bool:
        same = all(before.get(k) == after.get(k) for k in ("game", "options", "num_players"))
        return not same or int(after.get("moves") or 0) == 0

    def on_event(self, event: dict[str, Any]) -> None:
        seq = event.get("seq")
        if isinstance(seq, int):
            if seq <= self.last_seq:
                return  # had it already
            self.last_seq = seq
        kind, move = event.get("type"), event.get("move")
        if kind == "new_game":
            self.moves.clear()
            self.said.clear()
        elif kind in ("undo", "takeback") and isinstance(move, int):
            self._forget_after(move)
        elif kind in ("action", "chance") and isinstance(move, int):
            # Two actions judged at once come as two events but one state: keep both texts.
            self.moves[move] = str(event.get("action", event.get("outcome")))
            self._said(move, event.get("action_words"))
        line = describe(event, self.names)
        if line:
            self.log = [*self.log[-(LOG_LINES - 1):], line]

    def on_recent(self, recent: dict[str, Any]) -> None:
        """The retained window of recent events: those not taken yet are taken, in order."""
        run, events = recent.get("run"), recent.get("events")
        if not isinstance(run, str) or not isinstance(events, list):
            return
        if run != self.run:  # another run of the service: its seq numbers start again
            self.run, self.last_seq = run, 0
        for event in events:
            if isinstance(event, dict):
                self.on_event(event)

    def on_status(self, status: str, now: float | None = None) -> None:
        if status != self.status:
            self.status, self.status_since = status, time.time() if now is None else now

    def on_names(self, names: list[str]) -> None:
        self.names = names

    def on_private(self, seat: int, view: dict[str, Any] | None) -> None:
        """Seat ``seat``'s view; None: the topic was emptied (the game has no such seat)."""
        if view is None:
            self.private.pop(seat, None)
        else:
            self.private[seat] = view

    def secret(self, seat: int) -> str | None:
        """A phone seat's secret (``player/<n>``): what the display's ``play`` requests for that seat carry."""
        secret = (self.private.get(seat) or {}).get("secret")
        return secret if isinstance(secret, str) else None

    # -- what leaves ----------------------------------------------------------------------------

    def picture(self) -> tuple[str, list[str]]:
        """The board's SVG and each player's colour in it, drawn when first asked for after a state
        (a burst of states between two pushes to the pages is drawn once)."""
        if self.state is None:
            return "", []
        if self._drawn[0] is not self.state:
            self._drawn = (self.state, board_svg(self.state), player_colours(self.state))
        return self._drawn[1], self._drawn[2]

    def seats(self) -> int:
        return int(self.state.get("num_players") or 0) if self.state else 0

    def snapshot(self, delay: float = 0.0) -> dict[str, Any]:
        """The public picture of the board: only what ``state``, ``events``, ``status`` and
        ``names`` carry, plus the clock."""
        svg, colours = self.picture()
        return {
            "board": self.board,
            "state": self.state,
            "svg": svg,
            "colours": colours,
            "names": self.names,
            "moves": [[n, self.moves[n], self.said.get(n)] for n in sorted(self.moves)][-300:],
            "log": self.log,
            "clock": (self.state or {}).get("clock"),
            "status": self.status,
            "status_since": self.status_since,
            "delay": delay,
            "now": time.time(),
        }

    def summary(self) -> dict[str, Any]:
        """The hall's line for this board (its picture apart: the hall fetches it by version)."""
        s = self.state or {}
        return {"board": self.board, "title": s.get("title"), "game": s.get("game"), "turn": s.get("turn"),
                "over": s.get("over"), "winners": s.get("winners"), "moves": s.get("moves"), "seq": s.get("seq"),
                "scores": s.get("scores"), "colours": player_colours(s), "names": self.names,
                "players": s.get("players"), "violation": (s.get("violation") or {}).get("message"),
                "status": self.status, "now": time.time()}

    def seat(self, n: int) -> dict[str, Any]:
        """What seat ``n``'s page shows: its own private view and the public basics."""
        s = self.state or {}
        colours = self.picture()[1]
        private = self.private.get(n)
        if private is not None:  # a phone seat's secret stays here: the display adds it to the seat's moves itself
            private = {k: v for k, v in private.items() if k != "secret"}
        moves = (private or {}).get("moves", ())
        taps = {c for move in moves for c, _ in move.get("taps", ())}
        game, choices = str(s.get("game", "")), [*(m["action"] for m in moves), *(private or {}).get("choices", ())]
        return {"board": self.board, "seat": n, "private": private, "title": s.get("title"),
                "turn": s.get("turn"), "over": s.get("over"), "winners": s.get("winners"), "scores": s.get("scores"),
                "names": self.names, "players": s.get("players"), "status": self.status,
                "colour": colours[n] if n < len(colours) else None,
                "svg": self.picture()[0] if self.state else None,
                "xy": channel_points(game, sorted(taps)),
                "counts": counted_channels(game, s.get("options") or {}, self.seats(), taps),
                "faces": action_faces(game, [m["action"] for m in moves if not m.get("taps")]
                                      + list((private or {}).get("choices", ()))),
                "said": said_moves(game, n, choices)}


def said_moves(game: str, seat: int, texts: list[str]) -> dict[str, dict[str, Any]]:
    """Seat ``seat``'s moves in words (``Game.action_words``): notation -> code and params, for the
    seat page's buttons in its own language (the notation stays what is sent)."""
    return {text: action_words(game, text, seat).to_json() for text in texts}
