"""Golden playthroughs: every recorded game (``tests/golden/``) replays to the same positions.

A failure after a deliberate change of the rules: run ``python -m tests.golden regenerate`` and
review the diff of the JSON files (the first checkpoint that moved says where play now differs).
"""

from __future__ import annotations

import pytest

from controller.games import CHANCE
from controller.games.record import Match, Record, verify
from tests.golden import CASES, Case, decision_digest, load, perft


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.game}-{c.name}")
def test_golden_playthrough(case: Case) -> None:
    data = load(case)
    assert (data["game"], data["options"], data["num_players"], data["seed"]) == \
        (case.game, Match.new(case.game, case.options, case.players).record.options, case.players, case.seed), \
        "the file was made for another game or variant: regenerate it"
    match = Match.new(case.game, data["options"], data["num_players"], data["seed"])
    checkpoints = {int(k): v for k, v in data["checkpoints"].items()}
    perfts = {int(k): v for k, v in data["perft"].items()}
    assert len(data["decisions"]) == len(data["actions"])
    for i, (text, digest) in enumerate(zip(data["actions"], data["decisions"], strict=True), start=1):
        state = match.state
        assert decision_digest(state) == digest, \
            f"before action {i}: the legal actions or a view differ ({state.to_text()})"
        if state.current_player == CHANCE:
            drawn = match.resolve_chance()  # the seeded dice must fall as recorded
            assert state.action_to_text(drawn) == text, f"action {i}: the seeded chance drew another outcome"
        else:
            match.apply_text(text)
        if i in checkpoints:
            assert match.state.to_text() == checkpoints[i], f"position after action {i} differs"
            assert perft(match.state) == perfts[i], f"after action {i}: the count of move paths differs"
    final = match.state
    assert final.is_terminal()
    assert final.to_text() == data["final"]["position"]
    assert final.winners() == data["final"]["winners"]
    assert final.scores() == data["final"]["scores"]
    assert final.player_info() == data["final"]["players"]
    checks = verify(Record.from_dict(data))  # and the record proves its dice fair
    assert checks and all(c.verified for c in checks)


def test_every_game_has_golden_playthroughs() -> None:
    from controller.games import game_names

    assert {c.game for c in CASES} == set(game_names())
    assert all(c.path.exists() for c in CASES)
