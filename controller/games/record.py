"""Seeded chance and replayable game records.

A game is fully described by its name, options, number of players, seed and list of action texts:
chance nodes are resolved by a ``random.Random(seed)`` owned by the record (never the global
generator), or by a value a player enters for a physical die, which is then just another action in
the list. Replaying a record re-referees every action through the engine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from controller.games.base import CHANCE, Action, Announcement, State
from controller.games.registry import get_game


def sample_chance(state: State, rng: random.Random) -> Action:
    """Draw one outcome of the chance node ``state`` with ``rng``, by the outcomes' probabilities."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("not a chance node")
    actions = [a for a, _ in outcomes]
    weights = [w for _, w in outcomes]
    chosen: Action = rng.choices(actions, weights=weights, k=1)[0]
    return chosen


@dataclass
class Record:
    """A game in progress or finished: enough to rebuild every position exactly."""

    game: str
    options: dict[str, Any]
    num_players: int
    seed: int
    actions: list[str] = field(default_factory=list)

    def initial_state(self) -> State:
        return get_game(self.game).new_state(self.options, self.num_players)

    def replay(self) -> State:
        """The state after every recorded action, each checked again by the rules engine."""
        state = self.initial_state()
        for text in self.actions:
            state = state.apply(state.action_from_text(text))
        return state

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": dict(self.options),
            "num_players": self.num_players,
            "seed": self.seed,
            "actions": list(self.actions),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        return cls(data["game"], dict(data["options"]), int(data["num_players"]), int(data["seed"]),
                   [str(a) for a in data["actions"]])


class Match:
    """A live game: the current state, its record, and the seeded RNG that resolves chance.

    The RNG is derived from the seed and the number of chance nodes resolved so far, so a match
    rebuilt from its record (after a power cut) draws the same dice as the one that was running.
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
            seed: int = 0) -> Match:
        g = get_game(game)
        opts = g.options(options)
        players = g.players(num_players)
        return cls(Record(game, opts, players, seed))

    @property
    def state(self) -> State:
        return self.history[-1]

    def apply(self, action: Action) -> State:
        """Apply a legal action (raises ``IllegalAction`` otherwise) and record it."""
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

    def apply_text(self, text: str) -> State:
        return self.apply(self.state.action_from_text(text))

    def chance_rng(self) -> random.Random:
        """The generator for the next chance node: a pure function of (seed, chance nodes so far)."""
        return random.Random(f"{self.record.seed}:{self._chance_nodes[-1]}")

    def resolve_chance(self) -> Action:
        """Resolve the pending chance node with the seeded RNG (electronic dice) and apply it."""
        action = sample_chance(self.state, self.chance_rng())
        self.apply(action)
        return action

    def undo(self) -> State:
        """Take back the last action (a chance outcome included)."""
        if len(self.history) == 1:
            raise ValueError("nothing to undo")
        self.history.pop()
        self._chance_nodes.pop()
        self.record.actions.pop()
        self.public_log.pop()
        self.announced.pop()
        return self.state
