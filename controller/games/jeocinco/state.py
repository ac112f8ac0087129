"""Jeocinco's state: the game API over a position (see ``rules``, ``views``, ``position``)."""

from __future__ import annotations

import functools
from typing import Any, Final, cast

from controller.games.base import Action, Announcement, ColourName, Message, Say, State, in_english
from controller.games.jeocinco import board as B
from controller.games.jeocinco import rules, views
from controller.games.jeocinco.actions import (
    DICE_OUTCOMES,
    DIE_OUTCOMES,
    JeocincoAction,
    action_from_text,
    action_text,
    is_action,
)
from controller.games.jeocinco.position import JeocincoPosition, networks, to_text
from controller.games.jeocinco.rules import Facts

_DICE_P: list[tuple[Action, float]] = [(a, 1 / 36) for a in DICE_OUTCOMES]
_DIE_P: list[tuple[Action, float]] = [(a, 1 / 6) for a in DIE_OUTCOMES]


class JeocincoState(State):
    __slots__ = ("_sensed", "current_player", "facts", "position")
    position: JeocincoPosition
    facts: Facts
    """The position's board facts and legal actions, each worked out once."""
    current_player: int  # a plain slot here, computed once per state

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.position = facts.position
        self.current_player = rules.current_player(facts.position)
        self._sensed: tuple[int, int, int] | None = None  # views.sensed_bits, once asked

    @property
    def options(self) -> dict[str, Any]:
        return self.position.options

    @property
    def num_players(self) -> int:
        return self.position.players

    @property
    def phase(self) -> str:
        return self.position.phase

    def winning_actions(self) -> list[Action]:
        pos = self.position
        # five joined towers need four before the action; the round limit ends only the last turn
        last_turn = pos.round + 1 >= pos.max_rounds and pos.turn + 1 >= pos.players
        if not last_turn and all(pos.tower_count(p) < 4 for p in range(pos.players)):
            return []
        if last_turn or self.current_player < 0:
            return super().winning_actions()
        # a piece placed or a bridge laid wins only if it joins five of its player's towers (a few
        # bit operations per action: _Joins); the rest (towers) are few and tried whole
        out: list[Action] = []
        actor = _joins(pos, self.current_player)
        for a in self.legal_actions():
            kind = a[0]  # type: ignore[index]
            if kind in ("done", "dispute"):
                continue  # the turn goes on, or a die decides: not a win at once
            if kind == "place" and not (actor.near >> a[1] & 1 and actor.five((a[1],))):  # type: ignore[index]
                continue
            if kind == "bridge" and not _joins(pos, self.player_of(a)).five(B.BRIDGE_SLOTS[a[1]]):  # type: ignore[index]
                continue
            after = self.apply_legal(a)
            if after.is_terminal() and self.player_of(a) in after.winners():
                out.append(a)
        return out

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        phase = self.position.phase
        if phase == "roll":
            return list(_DICE_P)
        if phase in ("opening", "challenge", "defence"):
            return list(_DIE_P)
        return []

    def player_colour(self, player: int) -> ColourName | None:
        c = self.position.colours[player]
        return B.COLOUR_NAMES[c] if c >= 0 else None

    def player_name(self, player: int) -> str:
        """His colour once he has chosen his pentagons (people are named by colour, issue 36)."""
        return self.player_colour(player) or super().player_name(player)

    def returns(self) -> list[float]:
        return rules.returns(self.position)

    def scores(self) -> list[float]:
        return [float(self.position.tower_count(p)) for p in range(self.position.players)]

    def tower_count(self, player: int) -> int:
        return self.position.tower_count(player)

    def holder(self, slot: int) -> int:
        return self.position.holder(slot)

    # ---- actions --------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        return list(self.facts.legal_actions())

    def player_of(self, action: Action) -> int:
        """A bridge is its supports' owner's (laid in anyone's turn); anything else the actor's."""
        owner = rules.bridge_owner(self.position, action)
        return owner if owner >= 0 else self.current_player

    def apply_legal(self, action: Action) -> JeocincoState:
        return JeocincoState(rules.apply_legal(self.facts, cast(JeocincoAction, action)))

    def why_illegal(self, action: object) -> Message:
        return rules.why_illegal(self.facts, action)

    def action_to_text(self, action: Action) -> str:
        if not is_action(action):
            raise ValueError(f"not a Jeocinco action: {action!r}")
        return action_text(action)

    def action_from_text(self, text: str) -> Action:
        return action_from_text(text)

    def to_text(self) -> str:
        return to_text(self.position)

    # ---- views ----------------------------------------------------------------------------------
    def physical_view(self) -> dict[str, int]:
        return views.physical_view(self.position)

    def physical_changes(self, action: Action) -> dict[str, int]:
        # The referee asks this for every legal action: compare bit masks, not 645-channel views.
        quick = views.put_down(action) if is_action(action) else None
        if quick is not None:
            return quick
        after = self.apply(action)
        assert isinstance(after, JeocincoState)
        if self._sensed is None:  # the same for every action asked of this state (a move table's hundreds)
            self._sensed = views.sensed_bits(self.position)
        return views.changed_channels(self._sensed, after.position)

    def announcements(self, action: Action, after: State) -> list[Announcement]:
        if not is_action(action) or not isinstance(after, JeocincoState):
            return []
        return views.announcements(self.position, action, after.position)

    def public_view(self) -> dict[str, Any]:
        return views.public_view(self.position, self.scores(), self.winners())

    def render_text(self, say: Say = in_english) -> str:
        return views.render_text(self.position, say)


def _joins(pos: JeocincoPosition, p: int) -> _Joins:
    """p's :class:`_Joins` in ``pos`` (none joins five without five towers)."""
    c = pos.colours[p] if p >= 0 else -1
    pents = tuple(B.PENT_MASK[q] for q in range(c, B.NUM_PENTS, 4) if pos.towers[q] >= 0) if c >= 0 else ()
    return _Joins.of(pos.pieces[p], pos.bridges, pents) if len(pents) >= 5 else _NO_JOINS


class _Joins:
    """Which pieces or bridges join five of a player's towers, by bit operations: his networks (the
    position's, worked out once) each reduced to the towers it touches. A tower joins the towers of
    the networks that touch it (``rules.five_joined``), so a move that merges networks into one
    touching the towers ``M`` gives each tower j of ``M`` the towers ``T[j] | M``, and no other
    tower anything new."""

    __slots__ = ("mine", "near", "nets", "partners", "pents", "reach")

    def __init__(self, mine: int, bridges: tuple[int, ...], pents: tuple[int, ...]) -> None:
        self.mine = mine
        self.pents = pents
        self.partners: dict[int, int] = {}  # each slot's slots at the other end of a bridge laid on it
        for k in bridges:
            a, b = B.BRIDGE_SLOTS[k]
            self.partners[a] = self.partners.get(a, 0) | 1 << b
            self.partners[b] = self.partners.get(b, 0) | 1 << a
        nets = networks(mine, bridges) if pents else ()
        self.nets = [(net, sum(1 << j for j, pent in enumerate(pents) if net & pent)) for net, _near in nets]
        self.reach = [0] * len(pents)  # T[j]: the towers the networks touching tower j touch
        for _net, touched in self.nets:
            for j in range(len(pents)):
                if touched >> j & 1:
                    self.reach[j] |= touched
        # a piece joins five only where it joins two networks that touch towers (one network gains
        # nothing), or where it is a side of a tower
        near = once = 0
        for pent in pents:
            near |= pent
        for (net, far), (_m, touched) in zip(nets, self.nets, strict=True):
            if touched:
                for s, other_end in self.partners.items():
                    far |= other_end if net >> s & 1 else 0
                near |= once & far
                once |= far
        self.near = near & ~mine
        """The slots where a piece of p's may join five of his towers: :meth:`five` tells."""

    @staticmethod
    @functools.lru_cache(maxsize=1024)
    def of(mine: int, bridges: tuple[int, ...], pents: tuple[int, ...]) -> _Joins:
        """Kept: a player's moves leave the others' pieces as they are, so the root's look-ahead asks
        for the same pieces again and again."""
        return _Joins(mine, bridges, pents)

    def five(self, slots: tuple[int, ...]) -> bool:
        """Whether p's pieces in ``slots`` (a piece placed, or a bridge's two ends) joined as one
        network join five of his towers."""
        touching = added = 0
        for s in slots:
            added |= 1 << s
            touching |= B.ADJ_MASK[s] | self.partners.get(s, 0)
        touching = (touching | added) & self.mine
        merged = sum(1 << j for j, pent in enumerate(self.pents) if pent & added)
        for net, touched in self.nets:
            if net & touching:
                merged |= touched
        return any(merged >> j & 1 and (self.reach[j] | merged).bit_count() >= 5 for j in range(len(self.pents)))


_NO_JOINS: Final = _Joins(0, (), ())
