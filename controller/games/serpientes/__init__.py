"""Serpientes: snakes of sticks on a 12x12 grid, moved by programmed card sequences.

See ``docs/rules/serpientes.md`` for every rule and ruling as implemented here. The package is cut
as every game is: ``board`` ← ``actions`` ← ``position`` ← ``rules`` ← ``views`` ← ``state`` ← this
``Game``, and ``picture`` (the SVG) beside them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from controller.games.base import Channel, Game, Message, Option, Options, Say, canonical, in_english
from controller.games.serpientes import board as B
from controller.games.serpientes import picture, views, words
from controller.games.serpientes.position import initial_position, read_position
from controller.games.serpientes.state import SerpientesState

MAX_ROUNDS: Final = 5000
"""Largest ``max_rounds`` accepted. The default round limit (1000) is only a safety net against
endless play: seeded games (tests/games/serpientes/length_study.py) end by the rules within 264
rounds, most of them far sooner (docs/rules/serpientes.md, section 5)."""

OPTIONS: Final = (
    Option("cards", "relative", choices=("relative", "absolute"),
           doc="relative cards (straight, left, right) or absolute ones (north, east, south, west)"),
    Option("dealing", "arbitro", choices=("arbitro", "physical"),
           doc="arbitro deals and tracks the cards, or players use physical cards it only counts"),
    Option("tokens", 15, minimum=1, maximum=60, doc="tokens placed at random at the start"),
    Option("max_rounds", 1000, minimum=1, maximum=MAX_ROUNDS, doc="rounds before the game ends on scores"),
    Option("two_players", False, doc="allow a game of two players (the seed's author never tried it; 3 to 6 "
                                     "without it)"),
)


class SerpientesGame(Game):
    name = "serpientes"
    title = "Serpientes"
    picture_mm = 0.75  # the reference build: a 30 mm grid
    min_players = 2
    max_players = 6
    default_players = 4
    option_schema = OPTIONS

    def check_variant(self, options: dict[str, Any], num_players: int) -> None:
        if num_players == 2 and not options["two_players"]:
            raise ValueError("serpientes: 3 to 6 players; 2 only with the option two_players = true (the seed's "
                             "author never tried two: \"No he probado con 2 porque supongo que no funcionaría\")")

    def hides_information(self, options: Options | None = None) -> bool:
        """Cards arbitro deals are each seen by their own player alone (physical ones: only counted)."""
        return bool(self.options(options)["dealing"] == "arbitro")

    def state_seen_by(self, public_view: Mapping[str, Any], private_view: Mapping[str, Any],
                      seat: int) -> SerpientesState:
        return self.state_from_text(views.seen_text(public_view["position"], private_view, seat))

    def new_state(self, options: Options | None = None, num_players: int | None = None) -> SerpientesState:
        return SerpientesState(initial_position(*self.resolve(options, num_players)))

    def state_from_text(self, text: str) -> SerpientesState:
        return canonical(SerpientesState(read_position(text, self.resolve)), text)

    def channels(self, options: Options | None = None, num_players: int | None = None) -> list[Channel]:
        return list(B.CHANNELS)

    def channel_label(self, channel: str) -> str:
        """``pt:1:6`` is ``g2``, ``edge:h:0:6`` the stick place ``g1-h1``: the board's letters and numbers."""
        kind, *rest = channel.split(":")
        if kind == "pt":
            return B.node_name(B.node(int(rest[0]), int(rest[1])))
        r, c = int(rest[1]), int(rest[2])
        a = B.node(r, c)
        return f"{B.node_name(a)}-{B.node_name(a + 1 if rest[0] == 'h' else a + B.SIZE)}"

    def picture(self, public_view: dict[str, Any], marks: Sequence[str] = (), say: Say = in_english) -> str:
        """The board of ``public_view`` as SVG, each channel of ``marks`` ringed."""
        return picture.picture(public_view, marks, say)

    def channel_xy(self, name: str) -> tuple[float, float] | None:
        """Where the channel ``name`` sits in :meth:`picture`."""
        return picture.channel_xy(name)

    def action_words(self, text: str, player: int | None) -> Message:
        return words.action_words(text, player)

    def action_face(self, text: str) -> str | None:
        return picture.action_face(text)

    def notes(self, public_view: dict[str, Any]) -> list[Message]:
        return views.notes(public_view)

    def configurations(self) -> list[tuple[dict[str, Any], int]]:
        # The default round limit is a safety net that random games never reach (they end when every
        # snake is out, within about 250 rounds); 3 and 5 players and the other variants play with a
        # short limit, which keeps the suite quick and ends some games by the limit.
        short = {"max_rounds": 60}
        confs: list[tuple[dict[str, Any], int]] = []
        for n in range(2, 7):
            confs.append(({} if n % 2 == 0 else short, n))
        for n in range(2, 7):
            confs.append(({"cards": "absolute", **short}, n))
        for n in range(2, 7):
            confs.append(({"dealing": "physical", **short}, n))
        confs.append(({"dealing": "physical", "cards": "absolute", **short}, 3))
        two = {"two_players": True}  # two players only with the option
        return [(self.options({**o, **(two if n == 2 else {})}), n) for o, n in confs]

    def max_game_length(self, options: Options | None = None, num_players: int | None = None) -> int:
        opts, n = self.resolve(options, num_players)
        deck = sum(B.ABSOLUTE_PER_PLAYER if opts["cards"] == "absolute" else B.RELATIVE_PER_PLAYER) * n
        setup: int = opts["tokens"] + 1 + deck
        # per turn: half-turn choice, discard choice, draws, then adds + done or run + steps
        per_turn = 2 + B.HAND_SIZE + max(B.HAND_SIZE + 1, 1 + deck)
        rounds: int = opts["max_rounds"]
        return setup + rounds * n * per_turn


GAME = SerpientesGame()

__all__ = ["GAME", "SerpientesGame", "SerpientesState"]
