"""Ghost moves at human pace: a board the table is still setting up after a roll is never a takeback,
and a board on the way to a legal move is never applied, however long the hands hold it there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from controller.games import get_game
from controller.games.record import Match, Record
from controller.journal import Journal
from controller.session import Session
from tests.support.table import Table

# Seeded games played up to the moment that matters (found by random playouts; the journal resumes
# them, so the dice that follow are the seed's).
JEOCINCO_BEFORE_DISPUTE = (
    "roll 5,roll 5,roll 1,roll 2,colour E,colour W,roll 5+,place E5E-n,place A5E-A5S,roll 5D,place D5N-D5W,"
    "roll *B,place B1E-C1W,roll *E,place E2W-E3S,roll 4C,place C4E-D4W,roll 3C,place C3N-C3W,roll 5A,"
    "place A5E-B5W,roll 2B,place B2S-B2W,roll 2B,place B2E-B2S,roll 3C,place B2N-C3W,roll 2D,place D2E-E2W,"
    "roll 5D,place C4N-D5W,roll 5A,place A5E-n,roll 5A,place A5W-s,roll 2B,place B2E-C3S,roll 2A,"
    "place A1N-A2W,roll 3E,place E3E-E4S,roll 3A,place A3W-n,roll 3+,place C3N-C3E,place B2N-B3E,roll *B,"
    "place B3E-C3W,roll 5B,place A4N-A5E,roll 2E,place D2E-E3S,roll 1+,place A1N-A1E,place D1E-E1W,roll 2+,"
    "place E3S-E3W,place A1N-nw,roll 5+,place C4N-C5E,place D5E-E5W,roll 4+,place B3N-B4W,place E4N-E4W,"
    "roll 5A,place A5N-ne,roll 4B,place A4E-B3N,roll 2E,dispute E2W-E3S,roll 4,roll *,place B4S-C3W,roll *B,"
    "place B5N-B5W,roll 5B,place B5N-B5E,roll 5C,place C5W-n,roll 4B,place B4E-B4S,roll 5A,place A5S-sw,"
    "roll 4B,place B4N-B4S,roll 5A,place A5W-w,roll 5C,place C4W-C5S,roll 4D,place D4W-D5S,roll 2C,"
    "place C2E-D1N,roll *D,place C2N-D3W,roll 4D,place D4E-E4W,roll 3B,place A4E-B4W,roll 2B,place B2N-B2W,"
    "roll 1C,place C1S-C1W,roll 3E,place E2N-E3E,roll 1B,place B1N-B1W,roll *+,place E4E-n,place E1E-E1S,"
    "roll 4A,place B3N-B3E,roll 5B,place B5E-C5W,roll 3B,place B3N-B3S,roll *A,place A2E-B2W,roll *A,"
    "place A4E-B5S,roll 1A,place A1E-s,roll 2B,dispute B4E-B4S,roll 5,roll 5,roll 2,roll 1,place E5S-E5W,"
    "roll *D,place E3N-E4W,roll 4+,place C4N-C4W,place E4N-E5E,roll 2+,place A2E-B1N,place E2E-e,roll 3+,"
    "place B3S-B3W,place C3N-C3S,roll 1D,place D1E-D1S,roll 2E,place E1N-E2W,roll 4+,place D4E-D4S,"
    "place E4S-E4W,roll 4A,place A4W-w,roll 4E,place D4E-E5S,roll 5B,place B5S-B5W,roll *D,dispute E2W-E3S,"
    "roll 4,roll 3,place E5N-ne,roll 1B,place A1E-B1W,roll 1A,place A1E-A2S,roll 4B,place B5N-B5S,roll 3C,"
    "place C3E-C4S,roll 1+,place D2S-E1W,dispute A1N-A1E,roll *,roll 1,place A2N-A2E,roll 3+,place E3N-E3E,"
    "place A3E-A3S,roll 4C,place C4E-D5S,roll 2C,place D1N-D1W,roll 3C,dispute C3N-C3E,roll 2,roll 5,"
    "dispute E1N-E2W,roll 1,roll 2,dispute D4E-E5S,roll 2,roll 5,place E1N-E1S,roll 4E,place E3E-e,roll 4A,"
    "place A3N-nw,roll 5A,place A5N-A5S,roll 2+,place B4W-B5S,place A1N-A1W,roll 5A,place A5N-A5E,"
    "tower A5E A5E-n,done,roll 4B,place A4S-B3W,roll 4E,place E4E-e,done,roll 5+,place D2N-D2W,"
    "dispute D4E-E5S,roll 1,roll 2,place D4N-D4E,roll 3D,bridge D4N-D4E~E4S-E4W,place D3E-D3S,roll 5+,"
).rstrip(",").split(",")
SERPIENTES_BEFORE_STEP = (
    "token d10,token b10,token l2,token k3,token d11,token h10,token j11,token h12,token h8,token k5,"
    "token f9,token c4,token b4,token b6,token j4,first 2,discard,add,done,discard,done,keep,done,keep,add,"
    "add,done,discard,done,keep,add,done,keep,done,discard,add,done,discard,add,add,add,done,discard,run,"
    "step right,step straight,step right,discard,run,step left,discard,run,step straight,step right,"
    "step straight,step left,keep,add,done,discard,add,done,discard,done,keep,done,discard,run,step left,"
    "keep,done,discard,run,step straight,keep,done,discard,done,no-half-turn,discard,done,discard,add,done,"
    "keep,done,discard,done,discard,run,step right,keep,add,add,add,add,add,done,keep,done,keep,done,run,"
    "step right,step right,"
).rstrip(",").split(",")


SERPIENTES_BEFORE_RUN = [*SERPIENTES_BEFORE_STEP, *(
    "step right,discard,done,discard,add,done,half-turn,keep,done,discard,done,keep,run,step left,keep,"
    "add,done,keep,add,add,add,add,add,done,half-turn,discard,add,add,done,discard,run,step straight,run,"
    "step straight,discard,"
).rstrip(",").split(",")]


def resume_at(path: str, game: str, options: dict[str, Any], players: int, seed: int, actions: list[str]) -> None:
    journal = Journal(path)
    record = Record.seeded(game, get_game(game).options(options), players, seed, actions)
    Match(record)  # every action legal
    journal.start(f"t-{game}", record)
    journal.close()


def test_a_bridge_left_standing_after_a_dispute_roll_is_set_up_never_taken_back(tmp_path: Path) -> None:
    path = str(tmp_path / "journal.sqlite")
    # seed 9: the challenger wins the dispute rolls, so the challenged bridge's support is lost
    own_turn = {"own_turn_bridges": True}  # the game was recorded with bridges laid in one's own turn only
    resume_at(path, "jeocinco", own_turn, 2, 9, JEOCINCO_BEFORE_DISPUTE)
    with Table("jeocinco", options=own_turn, seed=9, journal=path) as table:
        table.play(table.state.action_from_text("dispute D4N-D4E"))  # the challenge: no trace on the board
        for n in (220, 221):  # both dice, pressed; the loser's bridge must come off the board
            table.hands.press("roll")

            def rolled(s: Session, n: int = n) -> bool:
                return len(s.match.record.actions) == n

            table.wait(rolled, "the dispute roll")
        table.idle()  # the table has not lifted the bridge yet, well past the window
        verdict = table.verdict
        assert table.moves == 221, "the dispute and its rolls were taken back"
        assert verdict.kind == "setup" and verdict.channels == ("bridge:D4N-D4E~E4S-E4W",)
        table.hands.set_channels({"bridge:D4N-D4E~E4S-E4W": 0})
        table.idle()
        verdict = table.verdict  # read again: the crash was taken
        assert verdict.kind == "in_sync" and table.moves == 221


def test_a_tail_stick_held_in_the_air_is_progress_not_a_crash(tmp_path: Path) -> None:
    path = str(tmp_path / "journal.sqlite")
    resume_at(path, "serpientes", {"dealing": "physical"}, 3, 1, SERPIENTES_BEFORE_STEP)
    with Table("serpientes", seed=1, players=3, options={"dealing": "physical"}, journal=path) as table:
        state = table.state
        crash = state.physical_changes(state.action_from_text("step right"))
        step = state.physical_changes(state.action_from_text("step straight"))
        assert crash == {"edge:h:6:11": 0} and step == {"edge:h:6:11": 0, "edge:h:3:10": 1}
        table.hands.set_channels({"edge:h:6:11": 0})  # the tail stick lifted first, and held
        table.idle(quiet=0.15)
        assert table.moves == 105, "a stick in the hand was recorded as a crash"
        assert table.verdict.kind == "progress"
        table.hands.set_channels({"edge:h:3:10": 1})  # put down at the head: the step it was on the way to
        table.wait(lambda s: len(s.match.record.actions) == 106, "the step")
        assert table.service.call(lambda: table.service.session.match.record.actions[-1]) == "step straight"


def test_a_crash_shown_on_the_board_is_taken_with_confirm(tmp_path: Path) -> None:
    path = str(tmp_path / "journal.sqlite")
    resume_at(path, "serpientes", {"dealing": "physical"}, 3, 1, SERPIENTES_BEFORE_STEP)
    with Table("serpientes", seed=1, players=3, options={"dealing": "physical"}, journal=path) as table:
        table.hands.set_channels({"edge:h:6:11": 0})  # the stick goes back to the box: a crash
        table.idle()
        assert table.verdict.kind == "progress" and table.service.call(table.service.session.choices) == ["step right"]
        table.hands.press("confirm")
        table.wait(lambda s: len(s.match.record.actions) == 106, "the crash")
        assert table.service.call(lambda: table.service.session.match.record.actions[-1]) == "step right"
        table.idle()
        verdict = table.verdict  # read again: the board was put right
        assert verdict.kind == "in_sync"


def test_a_tail_stick_lifted_before_the_run_is_pressed_is_progress_too(tmp_path: Path) -> None:
    """In the play phase ``run`` leaves no trace: the referee looks past it, and still sees a stick
    in the hand rather than run-then-crash."""
    path = str(tmp_path / "journal.sqlite")
    resume_at(path, "serpientes", {"dealing": "physical"}, 3, 1, SERPIENTES_BEFORE_RUN)
    with Table("serpientes", seed=1, players=3, options={"dealing": "physical"}, journal=path) as table:
        assert table.state.phase == "play"
        table.hands.set_channels({"edge:h:0:7": 0})  # the tail stick in the hand
        table.idle(quiet=0.15)
        assert table.moves == len(SERPIENTES_BEFORE_RUN) and table.verdict.kind == "progress"
        table.hands.set_channels({"edge:h:0:5": 1})  # and down at the head: run, then the step
        table.wait(lambda s: len(s.match.record.actions) == len(SERPIENTES_BEFORE_RUN) + 2, "run and the step")
        assert table.service.read(lambda s: s.match.record.actions[-2:]) == ["run", "step left"]
