"""Noughts and crosses behind the game API, with a chance node for who starts.

Not a product game: a small, fully known engine for testing the referee, the service and MQTT
independently of the real engines (which the conformance suite and the end-to-end tests cover).
"""

from __future__ import annotations

from typing import Any

from controller.games import CHANCE, TERMINAL, BadPosition, Channel, ChannelKind, Game, IllegalAction, State
from controller.games.base import Message, Options, Phrase, Point, Say, in_english, ring_marks

TAKEN = Phrase("toy.taken", "that square is taken or the game is over")

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
SQUARES = [f"{c}{r}" for r in "123" for c in "abc"]


class ToyState(State):
    def __init__(self, cells: tuple[int, ...], to_move: int) -> None:
        self.cells = cells  # 0 empty, 1 player 0, 2 player 1
        self.to_move = to_move  # -1 before the who-starts draw

    options = property(lambda self: {})
    num_players = property(lambda self: 2)

    def _winner(self) -> int | None:
        for a, b, c in LINES:
            if self.cells[a] and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a] - 1
        return None

    @property
    def current_player(self) -> int:
        if self.to_move < 0:
            return CHANCE
        if self._winner() is not None or all(self.cells):
            return TERMINAL
        return self.to_move

    def legal_actions(self) -> list[Any]:
        if self.current_player == CHANCE:
            return ["first 0", "first 1"]
        if self.current_player == TERMINAL:
            return []
        return [SQUARES[i] for i, v in enumerate(self.cells) if not v]

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        return [(a, 0.5) for a in self.legal_actions()] if self.current_player == CHANCE else []

    def why_illegal(self, action: object) -> Message:
        return TAKEN()

    def apply_legal(self, action: Any) -> ToyState:
        if self.current_player == CHANCE:
            return ToyState(self.cells, int(action[-1]))
        i = SQUARES.index(action)
        cells = list(self.cells)
        cells[i] = self.to_move + 1
        return ToyState(tuple(cells), 1 - self.to_move)

    def returns(self) -> list[float]:
        w = self._winner()
        return [0.0, 0.0] if w is None else [1.0 if p == w else -1.0 for p in range(2)]

    def to_text(self) -> str:
        return "".join(".xo"[v] for v in self.cells) + f" {self.to_move}"

    def action_to_text(self, action: Any) -> str:
        return str(action)

    def action_from_text(self, text: str) -> Any:
        if text in SQUARES or text in ("first 0", "first 1"):
            return text
        raise IllegalAction(text, "no such square")

    def physical_view(self) -> dict[str, int]:
        return {f"sq:{s}": v for s, v in zip(SQUARES, self.cells, strict=True)}


def square_xy(i: int) -> Point:
    """Where square ``i`` sits in the picture: a1 at the bottom left."""
    return 15.0 + 30 * (i % 3), 75.0 - 30 * (i // 3)


class ToyGame(Game):
    name = "toy"
    title = "Noughts and crosses"
    min_players = max_players = 2

    def default_options(self) -> dict[str, Any]:
        return {}

    def new_state(self, options: Options | None = None, num_players: int | None = None) -> ToyState:
        self.options(options)
        if num_players not in (None, 2):
            raise ValueError("two players")
        return ToyState((0,) * 9, -1)

    def state_from_text(self, text: str) -> ToyState:
        try:
            cells, to_move = text.split(" ")
            return ToyState(tuple(".xo".index(c) for c in cells), int(to_move))
        except ValueError as exc:
            raise BadPosition(text) from exc

    def channels(self, options: Options | None = None, num_players: int | None = None) -> list[Channel]:
        return [Channel(f"sq:{s}", ChannelKind.PIECE, 2) for s in SQUARES]

    def picture(self, public_view: dict[str, Any], marks: Any = (), say: Say = in_english) -> str:
        cells = str(public_view["position"]).split(" ")[0]
        pieces = [f'<text x="{x}" y="{y + 8}" font-size="24" text-anchor="middle">{c}</text>'
                  for i, c in enumerate(cells) if c != "." for x, y in [square_xy(i)]]
        svg = "\n".join(['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 90 90">', *pieces, "</svg>"])
        return ring_marks(svg, [("target", m) for m in marks], self.channel_xy, say=say)

    def channel_xy(self, name: str) -> Point | None:
        square = name.removeprefix("sq:")
        return square_xy(SQUARES.index(square)) if square != name and square in SQUARES else None

    def configurations(self) -> list[tuple[dict[str, Any], int]]:
        return [({}, 2)]

    def max_game_length(self, options: Options | None = None, num_players: int | None = None) -> int:
        return 10


GAME = ToyGame()
