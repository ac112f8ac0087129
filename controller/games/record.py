"""Fair chance and replayable game records.

A game is fully described by its name, options, number of players, chance secret and list of
action texts: chance nodes are resolved from the secret (:mod:`controller.games.chance`, never the
global generator), or by a value a player enters for a physical die, which is then just another
action in the list. Replaying a record re-referees every action through the engine; :func:`verify`
also checks every outcome the secret drew against the secret and its commitment.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from controller.games.base import CHANCE, Action, Announcement, BadPosition, State
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


RESOLVED = ("electronic", "table", "both", "none")
"""How a record says its chance was resolved: every outcome drawn from a secret (electronic), every
one entered at the table (the table's dice), some of each, or no chance node at all."""


def resolved(drawn: int, table: int) -> str:
    """:data:`RESOLVED`'s word for ``drawn`` outcomes drawn from a secret and ``table`` entered."""
    return ("both" if table else "electronic") if drawn else ("table" if table else "none")


@dataclass
class Record:
    """A game in progress or finished: enough to rebuild every position exactly.

    ``keys`` are the game's chance secrets, oldest first; chance is drawn with the last. There is
    one, unless a game that ended (and so revealed its secret) was taken back into play by an
    undo: it then goes on with a fresh secret. ``drawn`` says which secret drew which outcome
    (action index → key index) and ``table`` which outcomes were entered at the table (a physical
    die); ``table`` None: not marked (a journal keeps only ``drawn``, and a record from before the
    marks), every chance outcome ``drawn`` does not name being the table's, or drawn before arbitro
    had fair dice. ``over``: the game is over (won, drawn, resigned, abandoned), so its secret must
    be revealed; None: not said. ``said``: how a record read from JSON says its chance was resolved
    (:data:`RESOLVED`), checked against its marks by :func:`verify`.
    ``seats`` says who plays each seat (``controller.seats``); empty: every seat at the table.
    ``takebacks`` marks each takeback across a chance outcome already seen, made with the consent
    of the seats played away (``at``: the game's length after it, ``undone``, ``consent``: the seats).
    ``position``: the position text (``State.to_text``) the game began from, in the manner of PGN's
    SetUp and FEN tags; None: the game's initial state.
    """

    game: str
    options: dict[str, Any]
    num_players: int
    keys: list[ChanceKey]
    actions: list[str] = field(default_factory=list)
    drawn: dict[int, int] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)
    takebacks: list[dict[str, Any]] = field(default_factory=list)
    table: set[int] | None = None
    over: bool | None = None
    said: str | None = field(default=None, compare=False)  # a claim read from a file, checked by verify
    position: str | None = None

    @classmethod
    def seeded(cls, game: str, options: dict[str, Any], num_players: int, seed: int,
               actions: list[str] | None = None) -> Record:
        """A record whose chance comes from an explicit seed (predictable: tests and demos)."""
        return cls(game, options, num_players, [ChanceKey.of(seed_secret(seed))], list(actions or []))

    def initial_state(self) -> State:
        """The game's initial state, or the position it began from (``BadPosition``, a ``ValueError``,
        for a text that is no position of the game, or of another variant than the record's)."""
        game = get_game(self.game)
        if self.position is None:
            return game.new_state(self.options, self.num_players)
        state = game.state_from_text(self.position)  # the game's own check of the position (its problems)
        if state.num_players != self.num_players or state.options != game.options(self.options):
            raise BadPosition(f"position: a {self.game} position of {state.num_players} players and options "
                              f"{state.options}, not those of the record")
        return state

    def replay(self) -> State:
        """The state after every recorded action, each checked again by the rules engine."""
        state = self.initial_state()
        for text in self.actions:
            state = state.apply(state.action_from_text(text))
        return state

    def to_dict(self, *, reveal: bool = True, over: bool | None = None) -> dict[str, Any]:
        """The record as JSON; without ``reveal`` (a game still in play) the secret chance is
        drawn with from now on is left out, its commitment kept. ``over`` (else :attr:`over`) says
        whether the game is over; the marks (``table`` and how chance was resolved) are written
        when the record has them (``Match`` marks its record)."""
        keys = []
        for k, key in enumerate(self.keys):
            shown = reveal or k < len(self.keys) - 1  # earlier secrets were revealed when their game ended
            keys.append({"commitment": key.commitment, "secret": key.secret.hex() if shown and key.secret else None,
                         "drawn": sorted(i for i, by in self.drawn.items() if by == k)})
        fair: dict[str, Any] = {"scheme": SCHEME, "keys": keys}
        if self.table is not None:
            table = sorted(self.table - self.drawn.keys())
            fair.update(chance=resolved(len(self.drawn), len(table)), table=table)
        out: dict[str, Any] = {
            "game": self.game,
            "options": dict(self.options),
            "num_players": self.num_players,
            "actions": list(self.actions),
            "fair": fair,
        }
        if (over if over is not None else self.over) is not None:
            out["over"] = over if over is not None else self.over
        if self.seats:  # a game played at the table alone names none (``controller.seats.named``)
            out["seats"] = list(self.seats)
        if self.takebacks:
            out["takebacks"] = [dict(t) for t in self.takebacks]
        if self.position is not None:
            out["position"] = self.position
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """A record from :meth:`to_dict` (``KeyError`` names a field it lacks, ``ValueError`` says in
        one line what is wrong); one from before fair dice (a ``seed``, no ``fair``) replays, but its
        chance outcomes cannot be checked, and one from before the marks (no ``table``) has its
        outcomes not drawn taken as the table's."""
        if not isinstance(data, dict):
            raise ValueError("a record is a JSON object")
        game, options = _typed(data, "game", str), _typed(data, "options", dict)
        num_players, actions = _typed(data, "num_players", int), _texts(data, "actions")
        keys: list[ChanceKey] = []
        drawn: dict[int, int] = {}
        table: set[int] | None = None
        said: str | None = None
        fair = data.get("fair")
        if fair is None and "seed" not in data:  # a record from before fair dice has a seed instead
            raise KeyError("fair")
        if fair is not None:
            if not isinstance(fair, dict):
                raise ValueError("fair: must be an object")
            if fair.get("scheme") != SCHEME:
                raise ValueError(f"chance scheme {fair.get('scheme')!r} is not {SCHEME!r}")
            for k, key in enumerate(_typed(fair, "keys", list)):
                if not isinstance(key, dict):
                    raise ValueError(f"fair.keys: key {k} must be an object")
                keys.append(_key(k, key))
                for i in _indices(key, "drawn", len(actions), f"key {k}'s drawn"):
                    if i in drawn:
                        raise ValueError(f"action {i + 1} is drawn by two keys ({drawn[i]} and {k})")
                    drawn[i] = k
            if "table" in fair:
                table = set(_indices(fair, "table", len(actions), "fair.table"))
                both = sorted(table & drawn.keys())
                if both:
                    raise ValueError(f"action {both[0] + 1} is marked both as drawn and as entered at the table")
            said = fair.get("chance")
            if said is not None and (said not in RESOLVED or table is None):
                raise ValueError(f"fair.chance: must be one of {', '.join(RESOLVED)}, with fair.table")
        over = data.get("over")
        if over is not None and not isinstance(over, bool):
            raise ValueError("over: must be true or false")
        seats = _texts(data, "seats") if "seats" in data else []
        takebacks = _typed(data, "takebacks", list) if "takebacks" in data else []
        if not all(isinstance(t, dict) for t in takebacks):
            raise ValueError("takebacks: must be a list of objects")
        position = _typed(data, "position", str) if "position" in data else None
        return cls(game, dict(options), num_players, keys, actions, drawn, seats, [dict(t) for t in takebacks],
                   table=table, over=over, said=said, position=position)


def _typed(data: dict[str, Any], name: str, kind: type) -> Any:
    """``data[name]``, refused unless a ``kind`` (a bool is no number here)."""
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"{name}: must be {'a whole number' if kind is int else 'a ' + kind.__name__}")
    return value


def _texts(data: dict[str, Any], name: str) -> list[str]:
    texts = _typed(data, name, list)
    if not all(isinstance(t, str) for t in texts):
        raise ValueError(f"{name}: must be a list of texts")
    return list(texts)


def _indices(data: dict[str, Any], name: str, actions: int, what: str) -> list[int]:
    """Action indices (from 0) of a record of ``actions`` actions, each once."""
    found = data.get(name, [])
    if not isinstance(found, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in found):
        raise ValueError(f"{what}: must be a list of action indices")
    if len(set(found)) != len(found) or not all(0 <= i < actions for i in found):
        raise ValueError(f"{what}: an index twice, or one that is no action of the record's {actions}")
    return list(found)


def _key(k: int, key: dict[str, Any]) -> ChanceKey:
    """Key ``k`` of a record: its commitment (SHA-256 in hex), its secret (hex, at least 16 bytes) or null."""
    committed, secret = key.get("commitment"), key.get("secret")
    if not (isinstance(committed, str) and len(committed) == 64 and all(c in "0123456789abcdef" for c in committed)):
        raise ValueError(f"key {k}: its commitment must be a SHA-256 in lowercase hex (64 digits)")
    if secret is None:
        return ChanceKey(committed, None)
    try:
        raw = bytes.fromhex(secret) if isinstance(secret, str) else None
    except ValueError:
        raw = None
    if raw is None:
        raise ValueError(f"key {k}: its secret must be hexadecimal text, or null while it is not revealed")
    if len(raw) < MIN_SECRET_BYTES:
        raise ValueError(f"key {k}: its secret has {len(raw)} bytes; a chance secret has at least {MIN_SECRET_BYTES}")
    return ChanceKey(committed, raw)


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
        if record.table is None and record.keys:  # a journal's record: the outcomes not drawn were entered
            record.table = {i for i in range(len(record.actions))
                            if self.history[i].current_player == CHANCE and i not in record.drawn}
        elif record.table is not None:  # its own set (a copy of a record shares it), of its own actions
            record.table = {i for i in record.table if i < len(record.actions)}

    @classmethod
    def new(cls, game: str, options: dict[str, Any] | None = None, num_players: int | None = None,
            seed: int = 0, *, secret: bytes | None = None) -> Match:
        """A new game drawing chance from ``secret``, or else from an explicit ``seed``."""
        g = get_game(game)
        opts = g.options(options)
        players = g.players(num_players)
        return cls(Record(game, opts, players, [ChanceKey.of(secret if secret is not None else seed_secret(seed))],
                          table=set()))

    def copy(self) -> Match:
        """A copy that can play on without touching this match (states are immutable: shared, not
        replayed, which rebuilding from the record would do)."""
        copy: Match = Match.__new__(Match)  # typed, so ruff sees the class reading its own fields
        r = self.record
        copy.record = Record(r.game, dict(r.options), r.num_players, list(r.keys), list(r.actions), dict(r.drawn),
                             list(r.seats), [dict(t) for t in r.takebacks],
                             table=None if r.table is None else set(r.table), over=r.over, position=r.position)
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

    def apply(self, action: Action, after: State | None = None) -> State:
        """Apply a legal action (raises ``IllegalAction`` otherwise) and record it. At a chance
        node that is a value entered at the table: :meth:`resolve_chance` draws one. ``after``: the
        state the action makes, worked out already from this one (a held move's preview; engines
        are pure, so it is the state ``apply`` would make)."""
        text = self.state.action_to_text(action)
        chance = self.state.current_player == CHANCE
        new = self.state.apply(action) if after is None else after
        self._push(new, action)
        if chance and self.record.table is not None and len(self.record.actions) not in self.record.drawn:
            self.record.table.add(len(self.record.actions))  # the table's, unless resolve_chance drew it
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
        if self.record.table is not None:
            self.record.table.discard(len(self.record.actions) - 1)
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
        if self.record.table is not None:
            self.record.table.discard(len(self.record.actions))
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
    table: bool = False
    """Marked as entered at the table (the table's dice); False for one drawn, and for one not
    marked either way (a record from before the marks)."""


def verify(record: Record) -> list[ChanceCheck]:
    """Check ``record``'s chance: every revealed secret against its commitment, every outcome a
    secret drew against what that secret gives, every chance outcome marked drawn or the table's
    and as the record says its chance was resolved, and the secret revealed once the game is over;
    :class:`UnfairRecord` names the first that fails (``IllegalAction`` an action the rules
    refuse). The chance outcomes, each with what was found."""
    for k, key in enumerate(record.keys):
        if key.secret is not None and commitment(key.secret) != key.commitment:
            raise UnfairRecord(f"secret {k} does not match its commitment {key.commitment}")
        if key.secret is None and k < len(record.keys) - 1:
            raise UnfairRecord(f"secret {k} is withheld, though the game it drew for ended (a game over reveals its "
                               f"secret; an undo after the end went on with secret {k + 1})")
    marked = record.table
    match = Match(replace(record))  # a copy: a match marks a record that has no marks
    checks = []
    for i, text in enumerate(record.actions):
        state = match.history[i]
        if state.current_player != CHANCE:
            if i in record.drawn or (marked is not None and i in marked):
                raise UnfairRecord(f"action {i + 1} ({text}) is marked as a chance outcome "
                                   f"({'drawn' if i in record.drawn else 'entered at the table'}), and is none")
            continue
        if marked is not None and i not in marked and i not in record.drawn:
            raise UnfairRecord(f"action {i + 1} ({text}) is a chance outcome marked neither as drawn by a secret "
                               "nor as entered at the table")
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
                                  actions.index(state.action_from_text(text)), by, secret is not None,
                                  by is None and marked is not None and i in marked))
    _check_said(record, checks)
    if (record.over or match.state.is_terminal()) and record.keys and record.keys[-1].secret is None:
        drew = sum(c.key == len(record.keys) - 1 for c in checks)
        raise UnfairRecord(f"the game is over, and its secret is withheld: the {drew} outcomes it drew cannot be "
                           "checked (a game over reveals its secret)")
    return checks


def _check_said(record: Record, checks: list[ChanceCheck]) -> None:
    """How the record says its chance was resolved, against its marks."""
    if record.said is None:
        return
    table = [c for c in checks if c.table]
    if record.said == "electronic" and table:
        c = table[0]
        raise UnfairRecord(f"action {c.action + 1} ({record.actions[c.action]}) is marked as entered at the table, "
                           "but the record says its chance was electronic (every outcome drawn from the secret)")
    found = resolved(sum(c.key is not None for c in checks), len(table))
    if found != record.said:
        raise UnfairRecord(f"the record says its chance was resolved {record.said!r}, but its outcomes are marked "
                           f"{found!r}")
