"""Fair chance and replayable game records.

A game is fully described by its name, options, number of players, chance secret and list of
action texts: chance nodes are resolved from the secret (:mod:`controller.games.chance`, never the
global generator), or by a value a player enters for a physical die, which is then just another
action in the list. Replaying a record re-referees every action through the engine; :func:`verify`
also checks every outcome the secret drew against the secret and its commitment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from controller.games.base import CHANCE, Action, Announcement, State
from controller.games.chance import MIN_SECRET_BYTES, SCHEME, commitment, draw, integer_weights, seed_secret
from controller.games.registry import get_game

if TYPE_CHECKING:
    import random  # only the type of a generator handed in: the games never draw from one of their own


def sample_chance(state: State, rng: random.Random) -> Action:
    """Draw one outcome of the chance node ``state`` with ``rng``, by the outcomes' probabilities
    (random playouts in tests and benchmarks; a game at the table draws from its secret)."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("not a chance node")
    actions = [a for a, _ in outcomes]
    weights = [w for _, w in outcomes]
    chosen: Action = rng.choices(actions, weights=weights, k=1)[0]
    return chosen


@dataclass(frozen=True)
class ChanceKey:
    """A secret a game draws chance with: its commitment, and the secret itself where it may be
    known (``None`` in the record of a game still in play)."""

    commitment: str
    secret: bytes | None = None

    @classmethod
    def of(cls, secret: bytes) -> ChanceKey:
        if len(secret) < MIN_SECRET_BYTES:
            raise ValueError(f"a chance secret needs at least {MIN_SECRET_BYTES} bytes")
        return cls(commitment(secret), secret)


@dataclass
class Record:
    """A game in progress or finished: enough to rebuild every position exactly.

    ``keys`` are the game's chance secrets, oldest first; chance is drawn with the last. There is
    one, unless a game that ended (and so revealed its secret) was taken back into play by an
    undo: it then goes on with a fresh secret. ``drawn`` says which secret drew which outcome
    (action index → key index); a chance outcome it does not name was entered at the table (a
    physical die), or drawn before arbitro had fair dice (a game resumed from an older journal).
    ``seats`` says who plays each seat (``controller.seats``); empty: every seat at the table.
    ``takebacks`` marks each takeback across a chance outcome already seen, made with the consent
    of the seats played away (``at``: the game's length after it, ``undone``, ``consent``: the seats).
    """

    game: str
    options: dict[str, Any]
    num_players: int
    keys: list[ChanceKey]
    actions: list[str] = field(default_factory=list)
    drawn: dict[int, int] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)
    takebacks: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def seeded(cls, game: str, options: dict[str, Any], num_players: int, seed: int,
               actions: list[str] | None = None) -> Record:
        """A record whose chance comes from an explicit seed (predictable: tests and demos)."""
        return cls(game, options, num_players, [ChanceKey.of(seed_secret(seed))], list(actions or []))

    def initial_state(self) -> State:
        return get_game(self.game).new_state(self.options, self.num_players)

    def replay(self) -> State:
        """The state after every recorded action, each checked again by the rules engine."""
        state = self.initial_state()
        for text in self.actions:
            state = state.apply(state.action_from_text(text))
        return state

    def to_dict(self, *, reveal: bool = True) -> dict[str, Any]:
        """The record as JSON; without ``reveal`` (a game still in play) the secret chance is
        drawn with from now on is left out, its commitment kept."""
        keys = []
        for k, key in enumerate(self.keys):
            shown = reveal or k < len(self.keys) - 1  # earlier secrets were revealed when their game ended
            keys.append({"commitment": key.commitment, "secret": key.secret.hex() if shown and key.secret else None,
                         "drawn": sorted(i for i, by in self.drawn.items() if by == k)})
        out: dict[str, Any] = {
            "game": self.game,
            "options": dict(self.options),
            "num_players": self.num_players,
            "actions": list(self.actions),
            "fair": {"scheme": SCHEME, "keys": keys},
        }
        if self.seats:  # a game played at the table alone names none (``controller.seats.named``)
            out["seats"] = list(self.seats)
        if self.takebacks:
            out["takebacks"] = [dict(t) for t in self.takebacks]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """A record from :meth:`to_dict`; one from before fair dice (a ``seed``, no ``fair``)
        replays, but its chance outcomes cannot be checked."""
        game, options, num_players = data["game"], dict(data["options"]), int(data["num_players"])
        actions = [str(a) for a in data["actions"]]
        keys: list[ChanceKey] = []
        drawn: dict[int, int] = {}
        fair = data.get("fair")
        if fair is None and "seed" not in data:  # a record from before fair dice has a seed instead
            raise KeyError("fair")
        if fair is not None:
            if fair["scheme"] != SCHEME:
                raise ValueError(f"chance scheme {fair['scheme']!r} is not {SCHEME!r}")
            for k, key in enumerate(fair["keys"]):
                secret = bytes.fromhex(key["secret"]) if key.get("secret") is not None else None
                keys.append(ChanceKey(str(key["commitment"]), secret))
                for i in map(int, key["drawn"]):
                    if not 0 <= i < len(actions) or i in drawn:
                        raise ValueError(f"drawn outcome {i} of key {k} is no action of the record, or drawn twice")
                    drawn[i] = k
        return cls(game, options, num_players, keys, actions, drawn, [str(s) for s in data.get("seats", [])],
                   [dict(t) for t in data.get("takebacks", [])])


class Match:
    """A live game: the current state, its record, and the chance secret that resolves its dice.

    Chance node n is resolved by a function of (secret, n), n being the number of chance nodes
    resolved before it, so a match rebuilt from its record (after a power cut) draws the same
    dice as the one that was running, and an undone roll rolls the same again.
    """

    def __init__(self, record: Record) -> None:
        self.record = record
        self.history: list[State] = [record.initial_state()]
        self._chance_nodes = [0]  # chance nodes resolved before each state of the history
        self.public_log: list[str] = []
        """Each recorded action as everyone may see it (``State.public_action_text``)."""
        self.announced: list[list[Announcement]] = []
        """What each recorded action made happen (``State.announcements``)."""
        for text in record.actions:
            action = self.state.action_from_text(text)
            self._push(self.state.apply(action), action)

    @classmethod
    def new(cls, game: str, options: dict[str, Any] | None = None, num_players: int | None = None,
            seed: int = 0, *, secret: bytes | None = None) -> Match:
        """A new game drawing chance from ``secret``, or else from an explicit ``seed``."""
        g = get_game(game)
        opts = g.options(options)
        players = g.players(num_players)
        return cls(Record(game, opts, players, [ChanceKey.of(secret if secret is not None else seed_secret(seed))]))

    def copy(self) -> Match:
        """A copy that can play on without touching this match (states are immutable: shared, not
        replayed, which rebuilding from the record would do)."""
        copy: Match = Match.__new__(Match)  # typed, so ruff sees the class reading its own fields
        r = self.record
        copy.record = Record(r.game, dict(r.options), r.num_players, list(r.keys), list(r.actions), dict(r.drawn))
        copy.history = list(self.history)
        copy._chance_nodes = list(self._chance_nodes)
        copy.public_log = list(self.public_log)
        copy.announced = list(self.announced)
        return copy

    @property
    def state(self) -> State:
        return self.history[-1]

    @property
    def key(self) -> ChanceKey | None:
        """The secret chance is drawn with from now on (None: a game from before fair dice, not yet rekeyed)."""
        return self.record.keys[-1] if self.record.keys else None

    def apply(self, action: Action) -> State:
        """Apply a legal action (raises ``IllegalAction`` otherwise) and record it. At a chance
        node that is a value entered at the table: :meth:`resolve_chance` draws one."""
        text = self.state.action_to_text(action)
        new = self.state.apply(action)
        self._push(new, action)
        self.record.actions.append(text)
        return new

    def _push(self, new: State, action: Action) -> None:
        old = self.state
        self.public_log.append(old.public_action_text(action))
        self.announced.append(old.announcements(action, new))
        self._chance_nodes.append(self._chance_nodes[-1] + (old.current_player == CHANCE))
        self.history.append(new)

    def chance_node(self, i: int) -> int:
        """How many chance nodes were resolved before state ``i`` of the history (the n that draws
        the outcome of a chance node there)."""
        return self._chance_nodes[i]

    def apply_text(self, text: str) -> State:
        return self.apply(self.state.action_from_text(text))

    def resolve_chance(self) -> Action:
        """Resolve the pending chance node from the secret (electronic dice) and apply it."""
        key = self.key
        if key is None or key.secret is None:
            raise ValueError("this game has no secret to draw chance with")
        action = draw(key.secret, self._chance_nodes[-1], self.state.chance_outcomes())
        self.apply(action)
        self.record.drawn[len(self.record.actions) - 1] = len(self.record.keys) - 1
        return action

    def rekey(self, secret: bytes) -> None:
        """Draw chance with ``secret`` from now on: a game whose secret was revealed (it ended, then
        an undo took it back into play) or that has none (begun before fair dice)."""
        self.record.keys.append(ChanceKey.of(secret))

    def undo(self) -> State:
        """Take back the last action (a chance outcome included)."""
        if len(self.history) == 1:
            raise ValueError("nothing to undo")
        self.history.pop()
        self._chance_nodes.pop()
        self.record.actions.pop()
        self.record.drawn.pop(len(self.record.actions), None)
        self.public_log.pop()
        self.announced.pop()
        return self.state


class UnfairRecord(ValueError):
    """A record whose chance does not verify: a secret that is not its commitment's, or an outcome
    that is not the one its secret gives."""


@dataclass(frozen=True)
class ChanceCheck:
    """One chance outcome of a record, as :func:`verify` found it."""

    action: int
    """Its index in the record's actions (from 0)."""
    node: int
    """The chance node it resolved (0, 1, 2...)."""
    weights: tuple[int, ...]
    """The node's outcomes' whole weights, in the engine's order."""
    outcome: int
    """Which of those outcomes the record holds (from 0)."""
    key: int | None
    """The key that drew it; None: entered at the table, or drawn before fair dice."""
    verified: bool
    """The secret was there to check it (and it is the one the secret gives); False when the
    outcome was entered or its secret is not revealed yet."""


def verify(record: Record) -> list[ChanceCheck]:
    """Check ``record``'s chance: every revealed secret against its commitment, every outcome a
    secret drew against what that secret gives; :class:`UnfairRecord` names the first that fails
    (``IllegalAction`` an action the rules refuse). The chance outcomes, each with what was found."""
    for k, key in enumerate(record.keys):
        if key.secret is not None and commitment(key.secret) != key.commitment:
            raise UnfairRecord(f"secret {k} does not match its commitment {key.commitment}")
    match = Match(record)
    checks = []
    for i, text in enumerate(record.actions):
        state = match.history[i]
        if state.current_player != CHANCE:
            if i in record.drawn:
                raise UnfairRecord(f"action {i + 1} ({text}) is marked as drawn, and is no chance outcome")
            continue
        outcomes = state.chance_outcomes()
        actions = [a for a, _ in outcomes]
        node, by = match.chance_node(i), record.drawn.get(i)
        secret = record.keys[by].secret if by is not None else None
        if secret is not None:
            expected = draw(secret, node, outcomes)
            if state.action_from_text(text) != expected:
                raise UnfairRecord(f"action {i + 1} ({text}) is not what secret {by} gives chance node {node}: "
                                   f"{state.action_to_text(expected)}")
        checks.append(ChanceCheck(i, node, tuple(integer_weights([p for _, p in outcomes])),
                                  actions.index(state.action_from_text(text)), by, secret is not None))
    return checks
