"""Golden playthroughs: one recorded seeded game per game and per variant that changes play.

Each ``tests/golden/<game>-<name>.json`` holds a game (name, options, players, seed), its record
(every action: chance outcomes drawn by :class:`~controller.games.record.Match` from the seed's
secret, players' choices by a seeded random policy), the expected position text at a few checkpoints
and at the end, and the winners and scores. Before every action it also pins a hash of the decision
at hand (:func:`decision_digest`: the legal actions' texts, the physical view, the public view and
every private view), and at each checkpoint a perft-like count of legal action sequences to depth
2 (:func:`perft`, as python-chess counts move paths). ``tests/test_golden.py`` replays each and
compares; a refactor must leave every file as it is, and a deliberate change of the rules shows as
a diff of these files after::

    python -m tests.golden regenerate

The options shorten some games (a round or turn limit) so that all replay in a few seconds.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.games import CHANCE, State
from controller.games.record import Match

HERE = Path(__file__).resolve().parent
CHECKPOINTS = 6
"""Positions kept along the way (besides the final one)."""
PERFT_DEPTH = 2
"""How deep :func:`perft` counts from each checkpoint."""


@dataclass(frozen=True)
class Case:
    game: str
    name: str
    options: dict[str, Any] = field(default_factory=dict)
    players: int = 2
    seed: int = 1

    @property
    def path(self) -> Path:
        return HERE / f"{self.game}-{self.name}.json"


CASES = (
    Case("contigo", "alignment"),
    Case("contigo", "lmove", {"form": "L"}),
    Case("contigo", "capture", {"game": "capture"}),
    Case("jeocinco", "default", {"max_rounds": 40}),
    Case("jeocinco", "fast", {"fast": True, "max_rounds": 30}),
    # four players: round the table from the starter, or in the order of the rolls (seed 1: they differ)
    Case("jeocinco", "four", {"max_rounds": 15}, players=4),
    Case("jeocinco", "rollorder", {"roll_order": True, "max_rounds": 15}, players=4),
    # the fast game lays bridges within 30 rounds: in anyone's turn by default, here only in one's own
    Case("jeocinco", "ownturn", {"fast": True, "own_turn_bridges": True, "max_rounds": 30}),
    # the two readings of the sync clock part ways in these games (not every seed's game does)
    Case("scriptorium", "default", players=3, seed=2),
    Case("scriptorium", "literal", {"outer_line": "either"}, players=3, seed=2),
    Case("serpientes", "dealt", {"max_rounds": 25}, players=3),
    Case("serpientes", "physical", {"dealing": "physical", "max_rounds": 25}, players=3),
    Case("serpientes", "two", {"two_players": True, "max_rounds": 25}, players=2),
)


def decision_digest(state: State) -> str:
    """A short hash of everything a decision shows: the legal actions' texts (in the engine's
    order), the physical view, the public view and every player's private view."""
    seen = {
        "legal": [state.action_to_text(a) for a in state.legal_actions()],
        "physical": state.physical_view(),
        "public": state.public_view(),
        "private": [state.private_view(p) for p in range(state.num_players)],
    }
    text = json.dumps(seen, sort_keys=True, default=repr, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def perft(state: State, depth: int = PERFT_DEPTH) -> list[int]:
    """How many action sequences of length 1..``depth`` the rules allow from ``state`` (each chance
    outcome a branch of its own)."""
    counts = [0] * depth
    frontier = [state]
    for level in range(depth):
        following = []
        for s in frontier:
            for action in ([] if s.is_terminal() else s.legal_actions()):
                counts[level] += 1
                if level + 1 < depth:
                    following.append(s.apply(action))
        frontier = following
    return counts


def play(case: Case) -> dict[str, Any]:
    """Play ``case`` from its seed to the end: the record and what it leads to."""
    match = Match.new(case.game, case.options, case.players, case.seed)
    choose = random.Random(f"golden:{case.seed}")
    positions = [match.state.to_text()]
    decisions = []
    while not match.state.is_terminal():
        decisions.append(decision_digest(match.state))
        if match.state.current_player == CHANCE:
            match.resolve_chance()
        else:
            match.apply(choose.choice(match.state.legal_actions()))
        positions.append(match.state.to_text())
    n = len(match.record.actions)
    marks = sorted({n * k // (CHECKPOINTS + 1) for k in range(1, CHECKPOINTS + 1)} - {0, n})
    final = match.state
    return {
        "seed": case.seed,
        **match.record.to_dict(),
        "checkpoints": {str(i): positions[i] for i in marks},
        "decisions": decisions,
        "perft": {str(i): perft(match.history[i]) for i in marks},
        "final": {"position": final.to_text(), "winners": final.winners(), "scores": final.scores(),
                  "players": final.player_info()},
    }


def load(case: Case) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(case.path.read_text(encoding="utf-8"))
    return data


def regenerate() -> None:
    for case in CASES:
        data = play(case)
        case.path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"{case.path.name}: {len(data['actions'])} actions, winners {data['final']['winners']}")
