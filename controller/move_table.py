"""The move table: one state's legal actions indexed by what each changes on the board, the part of
the referee that finds which action a sensed board shows (``controller.referee``). Built on first
use, or a few actions at a time while the loop is idle."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import TypeVar

from controller.games import State
from controller.games.base import Action
from controller.saturation import NO_CEILING, Ceiling, seen_changes

V = TypeVar("V")
Owner = TypeVar("Owner")

Diff = frozenset[tuple[str, int]]
"""The channels where a view differs from the current one, with their values in that view."""


class MoveTable:
    """One state's view and the legal actions the board may make there (``from_board``), indexed by
    what they change, built on first use; or, for a lazy referee, a step at a time (:meth:`build`)."""

    __slots__ = ("_built", "_by_channel", "_by_diff", "_chans", "_from_board", "_legal", "_silent", "ceiling", "lit",
                 "state", "view")

    def __init__(self, state: State, view: dict[str, int], from_board: frozenset[int] | None = None,
                 ceiling: Ceiling = NO_CEILING) -> None:
        self.state = state  # kept so the cache key (its id) is not reused while the entry lives
        self.view = view
        self._from_board = from_board
        self.ceiling = ceiling  # pits that read full beyond a count: the diffs are as the sensors see them
        self._legal: list[Action] | None = None  # the legal actions, once asked for
        self._built = 0  # how many of them are indexed
        self._by_diff: dict[Diff, list[Action]] = {}
        self._chans: dict[Diff, frozenset[str]] = {}
        self._by_channel: dict[str, list[Diff]] = {}
        self._silent: list[Action] = []
        self.lit: dict[str, int] | None = None  # the LED targets, once asked for

    @property
    def complete(self) -> bool:
        return self._legal is not None and self._built == len(self._legal)

    def build(self, budget: int | None = None) -> bool:
        """Index ``budget`` more legal actions (None: all that are left); True once all are. Every
        use keeps the order of the legal actions, in which they are indexed."""
        if self._legal is None:
            self._legal = from_board(self.state, self.state.legal_actions(), self._from_board) \
                if self.state.current_player >= 0 else []
        legal = self._legal
        end = len(legal) if budget is None else min(len(legal), self._built + budget)
        changes, view, ceiling = self.state.physical_changes, self.view, self.ceiling
        for action in legal[self._built:end]:
            d = frozenset((seen_changes(changes(action), view, ceiling) if ceiling else changes(action)).items())
            if not d:
                self._silent.append(action)
                continue
            acts = self._by_diff.get(d)
            if acts is None:
                acts = self._by_diff[d] = []
                self._chans[d] = frozenset(c for c, _ in d)
                for c, _ in d:
                    self._by_channel.setdefault(c, []).append(d)
            acts.append(action)
        self._built = end
        return end == len(legal)

    @property
    def by_diff(self) -> dict[Diff, list[Action]]:
        self.build()
        return self._by_diff

    @property
    def silent(self) -> list[Action]:
        self.build()
        return self._silent

    def chans(self, d: Diff) -> frozenset[str]:
        """The channels a diff of this state's table changes."""
        return self._chans[d]

    def touching(self, channel: str) -> list[Diff]:
        """The diffs that change ``channel``, in the order of the legal actions."""
        self.build()
        return self._by_channel.get(channel, [])


def from_board(state: State, actions: list[Action], players: frozenset[int] | None) -> list[Action]:
    """The ``actions`` the board itself may make: those of the ``players`` seated at the table (None:
    every player). Another seat's action is taken only as that seat's move, carried out
    (``controller.carry_out``), whoever is to act."""
    if players is None:
        return actions
    player_of = state.player_of
    return [a for a in actions if player_of(a) in players]


def remember(cache: OrderedDict[int, V], key: int, value: V, size: int) -> None:
    cache[key] = value
    while len(cache) > size:
        cache.popitem(last=False)


def recall(cache: OrderedDict[int, tuple[Owner, V]], owner: Owner) -> V | None:
    """What ``cache`` keeps for ``owner`` (kept under its ``id`` with ``owner`` itself, so that an id
    reused by another object is never taken for it), made the most recent; None when nothing is."""
    entry = cache.get(id(owner))
    if entry is None or entry[0] is not owner:
        return None
    cache.move_to_end(id(owner))
    return entry[1]


def board_diff(view: Mapping[str, int], sensed: Mapping[str, int], ceiling: Ceiling = NO_CEILING) -> Diff:
    """Where the ``sensed`` board differs from ``view`` (an unsensed channel reads 0). A channel of
    ``ceiling`` reading its ceiling agrees with any count of at least that many. One pass over the
    view's channels: half the time of a set difference of items, which hashes every pair."""
    get = sensed.get
    diff = [(c, s) for c, v in view.items() if (s := get(c, 0)) != v]
    if ceiling and diff:
        return frozenset(seen_changes(dict(diff), view, ceiling).items())
    return frozenset(diff)
