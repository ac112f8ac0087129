"""Serpientes: snakes of sticks on a 12x12 grid, moved by programmed card sequences.

See ``docs/rules/serpientes.md`` for every rule and ruling as implemented here.
"""

from __future__ import annotations

from typing import Any, Literal, TypeGuard

from controller.games.base import (
    CHANCE,
    TERMINAL,
    Action,
    Announcement,
    Channel,
    ChannelKind,
    ColourName,
    Game,
    IllegalAction,
    Option,
    Options,
    State,
    find_action,
)
from controller.games.serpientes import board as B

HAND_SIZE = 5
SNAKE_COLOURS: tuple[ColourName, ...] = ("red", "blue", "green", "orange", "violet", "brown")
"""Each seat's sticks."""
START_SUPPLY = 4
MAX_ROUNDS = 5000
"""Largest ``max_rounds`` accepted. The default round limit (1000) is only a safety net against
endless play: seeded games (tests/games/serpientes/length_study.py) end by the rules within 264
rounds, most of them far sooner (docs/rules/serpientes.md, section 5)."""

RELATIVE_KINDS = ("straight", "left", "right")
RELATIVE_LETTERS = "SLR"
RELATIVE_PER_PLAYER = (6, 3, 3)
ABSOLUTE_KINDS = ("north", "east", "south", "west")
ABSOLUTE_LETTERS = "NESW"
ABSOLUTE_PER_PLAYER = (3, 3, 3, 3)

PLAYER_PHASES = frozenset({"half-turn", "discard", "play", "program", "run"})
CHANCE_PHASES = frozenset({"tokens", "first", "deal", "draw"})
ALL_PHASES = PLAYER_PHASES | CHANCE_PHASES | {"over"}
EVENTS = frozenset({"-", "placed", "ate", "crash-off", "crash-taken", "crash-jump", "half-turn",
                    "discarded", "programmed", "revealed"})


_CHANNELS = tuple(Channel(name, ChannelKind.PRESENCE) for name in B.EDGE_CHANNELS + B.NODE_CHANNELS)
_ZERO_VIEW = dict.fromkeys(B.EDGE_CHANNELS + B.NODE_CHANNELS, 0)
_EDGE_CH = {}
for _a in range(B.SIZE * B.SIZE):
    for _d in (B.EAST, B.SOUTH):
        _b = B.NEIGHBOUR[_a][_d]
        if _b is not None:
            _EDGE_CH[B.edge_key(_a, _b)] = B.edge_channel(_a, _b)
_NODE_CH = B.NODE_CHANNELS

_SLOTS = ("_opts", "_n", "_abs", "_phys", "_phase", "_player", "_turns", "_toplace", "_tokens",
          "_snakes", "_supply", "_eaten", "_crashed", "_hands", "_seqs", "_deck", "_discard",
          "_reshuffles", "_shown", "_last")


OPTIONS = (
    Option("cards", "relative", choices=("relative", "absolute"),
           doc="relative cards (straight, left, right) or absolute ones (north, east, south, west)"),
    Option("dealing", "arbitro", choices=("arbitro", "physical"),
           doc="arbitro deals and tracks the cards, or players use physical cards it only counts"),
    Option("tokens", 15, minimum=1, maximum=60, doc="tokens placed at random at the start"),
    Option("max_rounds", 1000, minimum=1, maximum=MAX_ROUNDS, doc="rounds before the game ends on scores"),
    Option("two_players", False, doc="allow a game of two players (the seed's author never tried it; 3 to 6 "
                                     "without it)"),
)


TokenAction = tuple[Literal["token"], int]
FirstAction = tuple[Literal["first"], int]
CardAction = tuple[Literal["draw", "step", "add"], int]
"""A card kind drawn, stepped with, or (dealt cards) added to the sequence."""
BareAction = tuple[Literal["add", "half-turn", "no-half-turn", "discard", "keep", "done", "run"]]
"""A decision without an argument (``add``: a physical card, unseen)."""
SAction = TokenAction | FirstAction | CardAction | BareAction
_BARE = ("add", "half-turn", "no-half-turn", "discard", "keep", "done", "run")


def _is_action(action: object) -> TypeGuard[SAction]:
    if not isinstance(action, tuple) or not action:
        return False
    if len(action) == 1:
        return action[0] in _BARE
    return (len(action) == 2 and action[0] in ("token", "first", "draw", "step", "add")
            and isinstance(action[1], int) and not isinstance(action[1], bool))


Hand = int | tuple[int, ...]
"""A player's hand: with physical cards how many he holds, with dealt cards a count per kind."""
Sequence_ = int | tuple[int, ...]
"""A programmed sequence: with physical cards its length, with dealt cards the kinds in order."""


def _kinds(cards: Hand) -> tuple[int, ...]:
    """Dealt cards as the engine knows them: counts per kind (a hand) or kinds in order (a sequence)."""
    if isinstance(cards, int):
        raise TypeError("physical cards are only counted")
    return cards


def _size(cards: Hand) -> int:
    """Physical cards: how many."""
    if not isinstance(cards, int):
        raise TypeError("dealt cards are listed, not only counted")
    return cards


class SerpientesState(State):
    __slots__ = _SLOTS
    _opts: dict[str, Any]
    _n: int
    _abs: bool
    """Absolute cards (north, east, south, west) rather than relative ones."""
    _phys: bool
    """Physical cards: the engine knows only how many each player holds and has programmed."""
    _phase: str
    _player: int
    _turns: int
    _toplace: int
    _tokens: frozenset[int]
    _snakes: tuple[tuple[int, ...], ...]
    _supply: tuple[int, ...]
    _eaten: tuple[int, ...]
    _crashed: tuple[int, ...]
    _hands: tuple[Hand, ...]
    _seqs: tuple[Sequence_, ...]
    _deck: tuple[int, ...]
    _discard: tuple[int, ...]
    _reshuffles: int
    _shown: tuple[int, ...]
    _last: str

    # ------------------------------------------------------------------ basics
    def _clone(self) -> SerpientesState:
        s = object.__new__(SerpientesState)
        for name in _SLOTS:
            setattr(s, name, getattr(self, name))
        return s

    def announcements(self, action: Action, after: State) -> list[Announcement]:
        if not _is_action(action) or action[0] != "step" or not isinstance(after, SerpientesState):
            return []
        p = self._player
        if after._last.startswith("crash-"):
            return [{"type": "crash", "player": p,
                     "text": f"player {p}'s snake crashed ({after._last[6:]}): the stick goes back to the box"}]
        if after._last == "ate":
            return [{"type": "ate", "player": p, "text": f"player {p}'s snake ate a token"}]
        return []

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._opts)

    def player_colour(self, player: int) -> ColourName:
        return SNAKE_COLOURS[player]

    @property
    def num_players(self) -> int:
        return self._n

    @property
    def kinds(self) -> tuple[str, ...]:
        """The card kinds of this variant, in their fixed order."""
        return ABSOLUTE_KINDS if self._abs else RELATIVE_KINDS

    @property
    def letters(self) -> str:
        return ABSOLUTE_LETTERS if self._abs else RELATIVE_LETTERS

    def _per_player(self) -> tuple[int, ...]:
        return ABSOLUTE_PER_PLAYER if self._abs else RELATIVE_PER_PLAYER

    def deck_total(self) -> int:
        return sum(self._per_player()) * self._n

    @property
    def current_player(self) -> int:
        ph = self._phase
        if ph == "over":
            return TERMINAL
        if ph in CHANCE_PHASES:
            return CHANCE
        return self._player

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def turn_player(self) -> int:
        return self._player

    @property
    def round(self) -> int:
        """The round being played (1-based; 0 before the first turn)."""
        return (self._turns + self._n - 1) // self._n

    def hand_size(self, p: int) -> int:
        h = self._hands[p]
        return h if isinstance(h, int) else sum(h)

    def sequence_length(self, p: int) -> int:
        q = self._seqs[p]
        return q if isinstance(q, int) else len(q)

    def sticks(self, p: int) -> int:
        """Sticks of ``p`` on the board."""
        return max(0, len(self._snakes[p]) - 1)

    def snake(self, p: int) -> tuple[int, ...]:
        """The intersections of ``p``'s snake from tail to head (empty once it has no sticks)."""
        return self._snakes[p]

    @property
    def tokens(self) -> frozenset[int]:
        return self._tokens

    def scores(self) -> list[float]:
        return [float(self._eaten[p] + self.sticks(p) + self._supply[p]) for p in range(self._n)]

    def returns(self) -> list[float]:
        if self._phase != "over":
            return [0.0] * self._n
        sc = self.scores()
        best = max(sc)
        if all(x == best for x in sc):
            return [0.0] * self._n
        return [1.0 if x == best else -1.0 for x in sc]

    # ------------------------------------------------------------------ legal actions
    def _free_token_spots(self) -> list[int]:
        taken = set(self._tokens)
        for sn in self._snakes:
            taken.update(sn)
        return [n for n in B.TOKEN_SPOTS if n not in taken]

    def _adds(self) -> list[SAction]:
        h = self._hands[self._player]
        if isinstance(h, int):
            return [("add",)] if h > 0 else []
        return [("add", k) for k, c in enumerate(h) if c > 0]

    def legal_actions(self) -> list[Action]:
        return list(self._legal())

    def _legal(self) -> list[SAction]:
        ph = self._phase
        if ph == "over":
            return []
        if ph == "tokens":
            return [("token", n) for n in self._free_token_spots()]
        if ph == "first":
            return [("first", p) for p in range(self._n)]
        if ph in ("deal", "draw"):
            return [("draw", k) for k, c in enumerate(self._deck) if c > 0]
        if ph == "half-turn":
            return [("half-turn",), ("no-half-turn",)]
        if ph == "discard":
            return [("discard",), ("keep",)]
        if ph == "play":
            acts = self._adds()
            if self.sequence_length(self._player):
                acts.append(("run",))
            acts.append(("done",))
            return acts
        if ph == "program":
            acts = self._adds()
            acts.append(("done",))
            return acts
        # run
        seq = self._seqs[self._player]
        if isinstance(seq, int):  # physical cards: the card is seen when the stick moves
            return [("step", k) for k in range(len(self.kinds))]
        return [("step", seq[0])]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        ph = self._phase
        if ph == "tokens":
            spots = self._free_token_spots()
            return [(("token", n), 1.0 / len(spots)) for n in spots]
        if ph == "first":
            return [(("first", p), 1.0 / self._n) for p in range(self._n)]
        if ph in ("deal", "draw"):
            total = sum(self._deck)
            return [(("draw", k), c / total) for k, c in enumerate(self._deck) if c > 0]
        return []

    # ------------------------------------------------------------------ illegal actions
    def _why_illegal(self, action: object) -> str | None:
        """A player's-words reason ``action`` is illegal here, or None if it is legal."""
        if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
            return "that is not a Serpientes action"
        ph = self._phase
        kind = action[0]
        if ph == "over":
            return "the game is over"
        chance_kind = {"tokens": "token", "first": "first", "deal": "draw", "draw": "draw"}
        if ph in CHANCE_PHASES:
            if kind != chance_kind[ph]:
                return f"waiting for chance ({self._chance_wait()}), not for a player's move"
            if kind == "token":
                return self._token_reason(action)
            if kind == "draw":
                if len(action) != 2 or action[1] not in range(len(self.kinds)):
                    return "that card kind is not in this deck"
                if self._deck[action[1]] == 0:
                    return f"no {self.kinds[action[1]]} card is left in the deck"
            if kind == "first" and (len(action) != 2 or action[1] not in range(self._n)):
                return f"the first player is one of 0..{self._n - 1}"
            return None if action in self.legal_actions() else "not a possible outcome here"
        p = self._player
        if kind in ("token", "first", "draw"):
            return f"that is a chance outcome; it is player {p}'s turn ({ph})"
        if kind in ("half-turn", "no-half-turn"):
            if ph != "half-turn":
                return "the half-turn is offered only at the start of the turn after a crash"
        elif ph == "half-turn":
            return "first decide on the half-turn (you crashed last time): 'half-turn' or 'no-half-turn'"
        elif kind in ("discard", "keep"):
            if ph != "discard":
                return "you may discard your whole hand only at the start of your turn, before drawing"
        elif ph == "discard":
            return "first choose to discard your whole hand or keep it ('discard' or 'keep')"
        elif kind == "add":
            if ph == "run":
                return "you are running your sequence: no cards may be added this turn"
            if self.hand_size(p) == 0:
                return "your hand is empty"
            if not self._phys:
                if len(action) != 2 or action[1] not in range(len(self.kinds)):
                    return "that card kind is not in this deck"
                if _kinds(self._hands[p])[action[1]] == 0:
                    return f"your hand holds no {self.kinds[action[1]]} card"
        elif kind == "run":
            if ph == "program":
                return ("a sequence programmed this turn cannot run until your next turn "
                        "(you added cards this turn)")
            if ph == "run":
                return "your sequence is already running"
            if self.sequence_length(p) == 0:
                return "you have no programmed sequence to run"
        elif kind == "done":
            if ph == "run":
                return "finish running your sequence: every card is played unless a crash ends it"
        elif kind == "step":
            if ph != "run":
                return "reveal your sequence with 'run' before moving sticks"
            if len(action) != 2 or action[1] not in range(len(self.kinds)):
                return "that card kind is not in this deck"
            if not self._phys and _kinds(self._seqs[p])[0] != action[1]:
                return (f"the next card of your sequence is {self.kinds[_kinds(self._seqs[p])[0]]}, "
                        f"not {self.kinds[action[1]]}")
        else:
            return "that is not a Serpientes action"
        return None if action in self.legal_actions() else "not legal in this position"

    def _chance_wait(self) -> str:
        return {"tokens": "placing tokens", "first": "choosing who starts", "deal": "dealing cards",
                "draw": "drawing a card"}[self._phase]

    def _token_reason(self, action: tuple[object, ...]) -> str | None:
        n = action[1] if len(action) == 2 else None
        if not isinstance(n, int) or n not in range(B.SIZE * B.SIZE):
            return "that is not an intersection"
        r, c = B.rc(n)
        name = B.node_name(n)
        if B.on_border(n):
            return f"tokens are not placed on the border ({name})"
        if r == B.CENTRE or c == B.CENTRE:
            return f"tokens are not placed on the central row or column ({name})"
        if n in self._tokens:
            return f"{name} already holds a token"
        if any(n in sn for sn in self._snakes):
            return f"a stick touches {name}"
        return None

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action) -> SerpientesState:
        reason = self._why_illegal(action)
        legal = find_action(action, self._legal()) if reason is None else None
        if legal is None:
            raise self.illegal(action, reason or "not legal in this position")
        s = self._clone()
        s._do(legal)
        return s

    def _do(self, action: SAction) -> None:
        p = self._player
        if action[0] == "token":
            self._tokens = self._tokens | {action[1]}
            self._toplace -= 1
            if self._toplace == 0:
                self._phase = "first"
        elif action[0] == "first":
            self._player = action[1]
            if self._phys:
                self._hands = tuple([HAND_SIZE] * self._n)
                self._begin_turn(action[1])
            else:
                self._phase = "deal"
                self._norm_deal()
        elif action[0] == "draw" and len(action) == 2:
            k = action[1]
            to = self._deal_recipient() if self._phase == "deal" else p
            hands = list(self._hands)
            h = list(_kinds(hands[to]))
            h[k] += 1
            hands[to] = tuple(h)
            self._hands = tuple(hands)
            deck = list(self._deck)
            deck[k] -= 1
            self._deck = tuple(deck)
            if self._phase == "deal":
                self._norm_deal()
            else:
                self._norm_draw()
        elif action[0] == "half-turn":
            self._snakes = _replace(self._snakes, p, tuple(reversed(self._snakes[p])))
            self._crashed = _replace(self._crashed, p, 0)
            self._last = "half-turn"
            self._begin_discard()
        elif action[0] == "no-half-turn":
            self._crashed = _replace(self._crashed, p, 0)
            self._begin_discard()
        elif action[0] == "discard":
            if self._phys:
                self._hands = _replace(self._hands, p, 0)
            else:
                self._discard = tuple(a + b for a, b in zip(self._discard, _kinds(self._hands[p]), strict=True))
                self._hands = _replace(self._hands, p, (0,) * len(self._deck))
            self._last = "discarded"
            self._begin_draw()
        elif action[0] == "keep":
            self._begin_draw()
        elif action[0] == "add":
            if len(action) == 1:  # a physical card
                self._hands = _replace(self._hands, p, _size(self._hands[p]) - 1)
                self._seqs = _replace(self._seqs, p, _size(self._seqs[p]) + 1)
            else:
                k = action[1]
                h = list(_kinds(self._hands[p]))
                h[k] -= 1
                self._hands = _replace(self._hands, p, tuple(h))
                self._seqs = _replace(self._seqs, p, (*_kinds(self._seqs[p]), k))
            self._last = "programmed"
            self._phase = "program"
        elif action[0] == "done":
            self._end_turn()
        elif action[0] == "run":
            self._phase = "run"
            self._shown = ()
            self._last = "revealed"
        elif action[0] == "step" and len(action) == 2:
            self._step(action[1])

    def _deal_recipient(self) -> int:
        sizes = [sum(_kinds(h)) for h in self._hands]
        low = min(sizes)
        for i in range(self._n):
            q = (self._player + i) % self._n
            if sizes[q] == low:
                return q
        raise AssertionError

    def _reshuffle(self) -> None:
        self._deck = self._discard
        self._discard = (0,) * len(self._deck)
        self._reshuffles += 1

    def _norm_deal(self) -> None:
        if all(sum(_kinds(h)) >= HAND_SIZE for h in self._hands):
            self._begin_turn(self._player)
        elif sum(self._deck) == 0:
            if sum(self._discard) == 0:
                self._begin_turn(self._player)
            else:
                self._reshuffle()

    def _norm_draw(self) -> None:
        if sum(_kinds(self._hands[self._player])) >= HAND_SIZE:
            self._phase = "play"
        elif sum(self._deck) == 0:
            if sum(self._discard) == 0:
                self._phase = "play"  # every card is in a hand or a sequence: draw what there is
            else:
                self._reshuffle()

    def _begin_turn(self, seat: int) -> None:
        if not any(self._snakes):
            self._phase = "over"
            return
        limit = self._opts["max_rounds"] * self._n
        while True:
            if self._turns >= limit:
                self._phase = "over"
                return
            self._turns += 1
            if self._snakes[seat]:
                break
            seat = (seat + 1) % self._n
        self._player = seat
        self._shown = ()
        if self._crashed[seat]:
            self._phase = "half-turn"
        else:
            self._begin_discard()

    def _end_turn(self) -> None:
        self._begin_turn((self._player + 1) % self._n)

    def _begin_discard(self) -> None:
        if self.hand_size(self._player) > 0:
            self._phase = "discard"
        else:
            self._begin_draw()

    def _begin_draw(self) -> None:
        p = self._player
        if self._phys:
            free = self.deck_total() - sum(map(_size, self._hands)) - sum(map(_size, self._seqs))
            self._hands = _replace(self._hands, p, min(HAND_SIZE, _size(self._hands[p]) + free))
            self._phase = "play"
        else:
            self._phase = "draw"
            self._norm_draw()

    def step_target(self, card: int) -> tuple[int | None, int, bool]:
        """Where a step with ``card`` goes: (far intersection or None off the board, head
        intersection it starts from, whether the stick comes from the tail)."""
        p = self._player
        sn = self._snakes[p]
        d = B.direction(sn[-2], sn[-1])
        nd = card if self._abs else (d, (d + 3) % 4, (d + 1) % 4)[card]
        from_tail = self._supply[p] == 0
        head = sn[-1]
        return B.NEIGHBOUR[head][nd], head, from_tail

    def _crash_kind(self, card: int) -> tuple[str | None, int | None]:
        """('off' | 'taken' | 'jump' | None, far intersection) for a step with ``card``."""
        p = self._player
        far, head, from_tail = self.step_target(card)
        if far is None:
            return "off", None
        key = B.edge_key(head, far)
        hit_node = False
        for q, sn in enumerate(self._snakes):
            if q == p and from_tail:
                sn = sn[1:]
            for i in range(1, len(sn)):
                if B.edge_key(sn[i - 1], sn[i]) == key:
                    return "taken", far
            if far in sn:
                hit_node = True
        return ("jump" if hit_node else None), far

    def step_preview(self) -> list[dict[str, Any]]:
        """While a sequence runs: for each legal step, where the stick would go and what would
        happen (for LEDs: where the next stick may go and where a crash would be). With dealt
        cards this names the next card, so it belongs to the running player's private view."""
        if self._phase != "run":
            return []
        out = []
        for action in self._legal():
            if len(action) != 2:
                continue
            card = action[1]
            crash, far = self._crash_kind(card)
            _, head, from_tail = self.step_target(card)
            outcome = "crash-" + crash if crash is not None else "ate" if far in self._tokens else "placed"
            out.append({
                "action": self.action_to_text(action),
                "from": B.node_name(head),
                "to": None if far is None else B.node_name(far),
                "edge": None if far is None else B.edge_channel(head, far),
                "stick_from": "tail" if from_tail else "supply",
                "outcome": outcome,
            })
        return out

    def _step(self, card: int) -> None:
        p = self._player
        crash, far = self._crash_kind(card)
        sn = self._snakes[p]
        if self._supply[p] > 0:
            self._supply = _replace(self._supply, p, self._supply[p] - 1)
        else:
            sn = sn[1:]  # the tail is lifted first
        if self._phys:
            rest = _size(self._seqs[p]) - 1
        else:
            rest_cards = _kinds(self._seqs[p])[1:]
            disc = list(self._discard)
            disc[card] += 1
            rest = len(rest_cards)
        self._shown = (*self._shown, card)
        if crash is not None:
            if len(sn) < 2:
                sn = ()  # no stick left on the board nor in the supply: out of the game
            self._snakes = _replace(self._snakes, p, sn)
            self._crashed = _replace(self._crashed, p, 1)
            if self._phys:
                self._seqs = _replace(self._seqs, p, 0)
            else:
                for k in rest_cards:
                    disc[k] += 1
                self._discard = tuple(disc)
                self._seqs = _replace(self._seqs, p, ())
            self._last = "crash-" + crash
            self._end_turn()
            return
        self._snakes = _replace(self._snakes, p, (*sn, far))
        if self._phys:
            self._seqs = _replace(self._seqs, p, rest)
        else:
            self._discard = tuple(disc)
            self._seqs = _replace(self._seqs, p, rest_cards)
        if far in self._tokens:
            self._tokens = self._tokens - {far}
            self._eaten = _replace(self._eaten, p, self._eaten[p] + 1)
            self._supply = _replace(self._supply, p, self._supply[p] + 1)
            self._last = "ate"
            if not self._tokens:
                self._phase = "over"
                return
        else:
            self._last = "placed"
        if rest == 0:
            self._end_turn()

    # ------------------------------------------------------------------ texts
    def _kind_index(self, word: str) -> int:
        try:
            return self.kinds.index(word)
        except ValueError:
            raise KeyError(word) from None

    def action_to_text(self, action: Action) -> str:
        if not _is_action(action):
            raise ValueError(f"not a Serpientes action: {action!r}")
        if len(action) == 1:
            return action[0]
        if action[0] == "token":
            return f"token {B.node_name(action[1])}"
        if action[0] == "first":
            return f"first {action[1]}"
        return f"{action[0]} {self.kinds[action[1]]}"

    def public_action_text(self, action: Action) -> str:
        """The action as the other players may learn it: a card drawn or added face down is not
        named (``draw``, ``add``); everything else is public (steps reveal their card)."""
        if _is_action(action) and action[0] in ("draw", "add"):
            return action[0]
        return self.action_to_text(action)

    def action_from_text(self, text: str) -> Action:
        if not isinstance(text, str):
            raise IllegalAction(repr(text), "an action is given as text")
        words = text.split()
        try:
            if len(words) == 1:
                w = words[0]
                if w in ("half-turn", "no-half-turn", "discard", "keep", "done", "run"):
                    return (w,)
                if w == "add" and self._phys:
                    return ("add",)
            elif len(words) == 2 and " ".join(words) == text:
                w, arg = words
                if w == "token":
                    return ("token", B.parse_node(arg))
                if w == "first" and arg.isdigit() and int(arg) < self._n and str(int(arg)) == arg:
                    return ("first", int(arg))
                if w in ("draw", "step") or (w == "add" and not self._phys):
                    return (w, self._kind_index(arg))
        except KeyError:
            pass
        raise IllegalAction(text, self._action_help())

    def _action_help(self) -> str:
        kinds = "|".join(self.kinds)
        add = "add" if self._phys else f"add {kinds}"
        return (f"not a Serpientes action; actions are: token <intersection>, first <player>, "
                f"draw {kinds}, half-turn, no-half-turn, discard, keep, {add}, run, done, step {kinds}")

    def _fields(self, public: bool, viewer: int = -1) -> list[str]:
        o = self._opts
        L = self.letters
        out = [
            "serpientes",
            f"players={self._n}",
            f"two={int(o['two_players'])}",
            f"cards={o['cards']}",
            f"dealing={o['dealing']}",
            f"tokens={o['tokens']}",
            f"rounds={o['max_rounds']}",
            f"phase={self._phase}",
            f"player={self._player if self._player >= 0 else '-'}",
            f"turns={self._turns}",
            f"toplace={self._toplace}",
            "tok=" + (",".join(B.node_name(n) for n in sorted(self._tokens)) or "-"),
            "snakes=" + "/".join(".".join(B.node_name(n) for n in sn) or "x" for sn in self._snakes),
            "supply=" + ",".join(map(str, self._supply)),
            "eaten=" + ",".join(map(str, self._eaten)),
            "crashed=" + ",".join(map(str, self._crashed)),
        ]
        if self._phys:
            out.append("hands=" + "/".join(map(str, self._hands)))
            out.append("seqs=" + "/".join(map(str, self._seqs)))
            out.append("deck=-")
            out.append("discard=-")
        elif public:
            out.append("hands=" + "/".join(
                ("".join(L[k] * c for k, c in enumerate(_kinds(h))) or "-") if p == viewer else f"#{sum(_kinds(h))}"
                for p, h in enumerate(self._hands)))
            out.append("seqs=" + "/".join(
                ("".join(L[k] for k in _kinds(q)) or "-") if p == viewer else f"#{len(_kinds(q))}"
                for p, q in enumerate(self._seqs)))
            out.append(f"deck=#{sum(self._deck)}")
            out.append(f"discard=#{sum(self._discard)}")
        else:
            out.append("hands=" + "/".join("".join(L[k] * c for k, c in enumerate(_kinds(h))) or "-"
                                           for h in self._hands))
            out.append("seqs=" + "/".join("".join(L[k] for k in _kinds(q)) or "-" for q in self._seqs))
            out.append("deck=" + ",".join(map(str, self._deck)))
            out.append("discard=" + ",".join(map(str, self._discard)))
        out.append(f"reshuffles={self._reshuffles}")
        out.append("shown=" + ("".join(L[k] for k in self._shown) or "-"))
        out.append(f"last={self._last}")
        return out

    def to_text(self) -> str:
        return " ".join(self._fields(public=False))

    def public_text(self) -> str:
        """The position as every player sees it: hands, sequences and the deck as counts only."""
        return " ".join(self._fields(public=True))

    def private_text(self, player: int) -> str:
        """The position as ``player`` sees it: the public text with his own hand and sequence."""
        if not 0 <= player < self._n:
            raise ValueError(f"no player {player}")
        return " ".join(self._fields(public=True, viewer=player))

    # ------------------------------------------------------------------ views
    def physical_view(self) -> dict[str, int]:
        view = dict(_ZERO_VIEW)
        for sn in self._snakes:
            for i in range(1, len(sn)):
                view[_EDGE_CH[B.edge_key(sn[i - 1], sn[i])]] = 1
        for n in self._tokens:
            view[_NODE_CH[n]] = 1
        return view

    def public_view(self) -> dict[str, Any]:
        snakes = []
        for p in range(self._n):
            sn = self._snakes[p]
            snakes.append({
                "player": p,
                "intersections": [B.node_name(n) for n in sn],
                "head": B.node_name(sn[-1]) if sn else None,
                "tail": B.node_name(sn[0]) if sn else None,
                "sticks": self.sticks(p),
                "supply": self._supply[p],
                "eaten": self._eaten[p],
                "in_game": bool(sn),
                "hand_size": self.hand_size(p),
                "sequence_length": self.sequence_length(p),
                "may_half_turn": bool(self._crashed[p]),
            })
        return {
            "game": "serpientes",
            "options": self.options,
            "players": self._n,
            "phase": self._phase,
            "current_player": self.current_player,
            "turn_player": self._player,
            "round": self.round,
            "max_rounds": self._opts["max_rounds"],
            "tokens": [B.node_name(n) for n in sorted(self._tokens)],
            "tokens_to_place": self._toplace,
            "snakes": snakes,
            "scores": self.scores(),
            "deck_size": None if self._phys else sum(self._deck),
            "discard_size": None if self._phys else sum(self._discard),
            "reshuffles": self._reshuffles,
            "revealed": [self.kinds[k] for k in self._shown],
            "last": self._last,
            "pending_chance": self._chance_wait() if self._phase in CHANCE_PHASES else None,
            "winners": self.winners(),
            "position": self.public_text(),
        }

    def private_view(self, player: int) -> dict[str, Any]:
        if not 0 <= player < self._n:
            raise ValueError(f"no player {player}")
        view: dict[str, Any]
        if self._phys:
            view = {"player": player, "hand_size": self._hands[player],
                    "sequence_length": self._seqs[player], "cards": "physical"}
        else:
            hand = [self.kinds[k] for k, c in enumerate(_kinds(self._hands[player])) for _ in range(c)]
            view = {"player": player, "hand": hand, "sequence": [self.kinds[k] for k in _kinds(self._seqs[player])]}
        if self._phase == "run" and player == self._player:
            view["next_steps"] = self.step_preview()
        return view

    def render_text(self) -> str:
        owner: dict[int, int] = {}
        heads: dict[int, int] = {}
        edges: dict[int, int] = {}
        for p, sn in enumerate(self._snakes):
            for n in sn:
                owner[n] = p
            if sn:
                heads[sn[-1]] = p
            for i in range(1, len(sn)):
                edges[B.edge_key(sn[i - 1], sn[i])] = p
        lines = ["    " + "   ".join(B.COLUMNS)]
        for r in range(B.SIZE):
            row = f"{r + 1:>2}  "
            below = "    "
            for c in range(B.SIZE):
                n = B.node(r, c)
                if n in heads:
                    ch = "ABCDEF"[heads[n]]
                elif n in owner:
                    ch = str(owner[n])
                elif n in self._tokens:
                    ch = "o"
                else:
                    ch = "."
                row += ch
                if c < B.SIZE - 1:
                    e = edges.get(B.edge_key(n, n + 1))
                    row += "   " if e is None else f"-{e}-"
                if r < B.SIZE - 1:
                    e = edges.get(B.edge_key(n, n + B.SIZE))
                    below += (" " if e is None else str(e)) + "   "
            lines.append(row.rstrip())
            if r < B.SIZE - 1:
                lines.append(below.rstrip())
        status = [f"phase {self._phase}, round {self.round}/{self._opts['max_rounds']}, "
                  f"tokens left {len(self._tokens)}"]
        for p in range(self._n):
            mark = "*" if p == self._player and self._phase in PLAYER_PHASES else " "
            status.append(f"{mark}player {p} ({'ABCDEF'[p]} head): sticks {self.sticks(p)} supply "
                          f"{self._supply[p]} eaten {self._eaten[p]} score {int(self.scores()[p])} "
                          f"hand {self.hand_size(p)} sequence {self.sequence_length(p)}")
        return "\n".join(lines + status)


def _replace(t: tuple, i: int, v: object) -> tuple:
    return (*t[:i], v, *t[i + 1:])


class SerpientesGame(Game):
    name = "serpientes"
    title = "Serpientes"
    min_players = 2
    max_players = 6
    default_players = 4
    option_schema = OPTIONS

    def check_variant(self, options: dict[str, Any], num_players: int) -> None:
        if num_players == 2 and not options["two_players"]:
            raise ValueError("serpientes: 3 to 6 players; 2 only with the option two_players = true (the seed's "
                             "author never tried two: \"No he probado con 2 porque supongo que no funcionaría\")")

    def new_state(self, options: Options | None = None, num_players: int | None = None) -> SerpientesState:
        opts, n = self.resolve(options, num_players)
        s = object.__new__(SerpientesState)
        nk = 4 if opts["cards"] == "absolute" else 3
        phys = opts["dealing"] == "physical"
        per = ABSOLUTE_PER_PLAYER if nk == 4 else RELATIVE_PER_PLAYER
        values = {
            "_opts": opts, "_n": n, "_abs": nk == 4, "_phys": phys, "_phase": "tokens", "_player": -1,
            "_turns": 0, "_toplace": opts["tokens"], "_tokens": frozenset(),
            "_snakes": tuple(B.start_snake(n, p) for p in range(n)),
            "_supply": (START_SUPPLY,) * n, "_eaten": (0,) * n, "_crashed": (0,) * n,
            "_hands": (0,) * n if phys else ((0,) * nk,) * n,
            "_seqs": (0,) * n if phys else ((),) * n,
            "_deck": () if phys else tuple(c * n for c in per),
            "_discard": () if phys else (0,) * nk,
            "_reshuffles": 0, "_shown": (), "_last": "-",
        }
        for k, v in values.items():
            object.__setattr__(s, k, v)
        return s

    def state_from_text(self, text: str) -> SerpientesState:
        from controller.games.serpientes.text import parse_position
        return parse_position(self, text)

    def channels(self, options: Options | None = None, num_players: int | None = None) -> list[Channel]:
        return list(_CHANNELS)

    def channel_positions(self, options: Options | None = None,
                          num_players: int | None = None) -> dict[str, tuple[float, float]]:
        out: dict[str, tuple[float, float]] = {}
        for c in _CHANNELS:
            kind, *rest = c.name.split(":")
            if kind == "pt":
                r, col = map(int, rest)
                out[c.name] = (col, -r)
            else:  # edge:h:r:c joins (r,c)-(r,c+1); edge:v:r:c joins (r,c)-(r+1,c)
                r, col = map(int, rest[1:])
                out[c.name] = (col + 0.5, -r) if rest[0] == "h" else (col, -r - 0.5)
        return out

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
        deck = sum(ABSOLUTE_PER_PLAYER if opts["cards"] == "absolute" else RELATIVE_PER_PLAYER) * n
        setup = opts["tokens"] + 1 + deck
        # per turn: half-turn choice, discard choice, draws, then adds + done or run + steps
        per_turn = 2 + HAND_SIZE + max(HAND_SIZE + 1, 1 + deck)
        return setup + opts["max_rounds"] * n * per_turn


