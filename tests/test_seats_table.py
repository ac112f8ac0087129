"""The table's side of a computer player's move: a bead move lit pit by pit and told with its
counts, a hint for a hidden move told to the asking seat alone, and a computer player that cannot
decide warned about and asked again (``controller.session``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from controller.games import ChannelKind
from controller.games.record import Record
from controller.session import Decide, Outcome, Session
from tests.test_seats import bot_game, decide
from tests.test_session import session_for, show, verdict_of


def carry_out(s: Session) -> Outcome:
    """The table carries out the expected move; the referee takes it."""
    show(s, s.expected_view())
    judged = s.judge()
    assert verdict_of(judged) == "applied", s.verdict
    return judged


def expected_event(outcome: Outcome) -> dict[str, Any]:
    found = [e for e in outcome.events if e["type"] == "expected"]
    assert len(found) == 1, outcome.events
    return found[0]


def computer_until(s: Session, outcome: Outcome, starts: str) -> Outcome:
    """The computer players' moves carried out until one decides a move whose text starts with ``starts``."""
    for _ in range(40):
        told = decide(s, outcome)
        assert s.expected is not None
        if s.expected.text.startswith(starts):
            return told
        outcome = carry_out(s)
    raise AssertionError(f"no computer player's move started with {starts!r}")


def counts(s: Session) -> dict[str, int]:
    return {c: v for c, v in s.referee.expected().items() if s.kinds[c] == ChannelKind.COUNT}


def test_a_computers_bead_move_in_the_alignment_game_names_the_pits_and_counts() -> None:
    s, outcome = bot_game("contigo", ["bot:easy", "bot:easy"])
    told = computer_until(s, outcome, "beads ")
    event = expected_event(told)
    before, after = counts(s), {c: v for c, v in s.expected_view().items() if s.kinds[c] == ChannelKind.COUNT}
    source = next(c for c in before if after[c] < before[c])
    target = next(c for c in before if after[c] > before[c])
    moved = before[source] - after[source]
    assert event["code"] == "table.carry_out_counts"
    label = s.game.channel_label
    words = s.game.action_words(event["action"], event["player"]).text  # the move in words, not its notation
    assert event["message"] == (f"the computer decided: {words}; take {moved} from {label(source)}, leaving "
                                f"{after[source]}; put {moved} into {label(target)}, to hold {after[target]}")
    assert told.scene is not None and told.scene.lift == (source,) and told.scene.place == (target,)


def lit_step_by_step(s: Session, told: Outcome) -> None:
    """A step of a computer's spread (a pick-up or a drop): told with its count, its one pit lit
    (blinking to take from, steady to fill) while it lacks its count, and a bead on the way is
    progress."""
    assert s.expected is not None
    verb, pit, k = s.expected.text.split()
    channel, now, n = f"pit:{pit}", counts(s)[f"pit:{pit}"], int(k)
    assert told.scene is not None
    if verb == "take":
        assert expected_event(told)["message"].endswith(f"; take {n} from {pit}, leaving {now - n}")
        assert (told.scene.lift, told.scene.place) == ((channel,), ())
        on_the_way = now - n + 1
    else:
        assert expected_event(told)["message"].endswith(f"; put {n} into {pit}, to hold {now + n}")
        assert (told.scene.lift, told.scene.place) == ((), (channel,))
        on_the_way = now + n - 1
    if n > 1:
        show(s, {channel: on_the_way})
        assert verdict_of(s.judge()) == "progress"
        lit = s.scene()
        assert (lit.lift or lit.place) == (channel,)


def test_a_computers_spread_is_lit_pit_by_pit_each_lit_until_it_holds_its_count() -> None:
    s, outcome = bot_game("contigo", ["bot:easy", "bot:easy"], options={"game": "capture"})
    told = computer_until(s, outcome, "take ")
    steps = []
    while True:  # the pick-up, then each drop until the hand is empty
        lit_step_by_step(s, told)
        assert s.expected is not None
        steps.append(s.expected.text.split()[0])
        outcome = carry_out(s)
        if s.state.phase != "drop":
            break
        told = decide(s, outcome)
    assert steps[0] == "take" and steps[-1] == "drop"


def test_a_spread_into_another_pit_is_a_violation_saying_what_the_computer_played() -> None:
    s, outcome = bot_game("contigo", ["bot:easy", "bot:easy"], options={"game": "capture"})
    computer_until(s, outcome, "take ")
    outcome = carry_out(s)
    while True:
        decide(s, outcome)
        assert s.expected is not None
        if s.expected.text.startswith("drop "):
            break
        outcome = carry_out(s)
    pit = f"pit:{s.expected.text.split()[1]}"
    other = next(c for c in counts(s) if c != pit and s.sensed[c] > 0)
    show(s, {other: s.sensed[other] + 1})
    judged = s.judge(settled=True)
    assert verdict_of(judged) == "violation" and judged.public is not None
    said = judged.public["violation"]
    assert said["code"] == "table.played" and said["message"].startswith(
        f"the computer decided: {s.game.action_words(s.expected.text, s.expected.player).text}; ")


def serpientes_hinted_a_hidden_move() -> tuple[Session, Outcome]:
    """A Serpientes game with seat 0 at the table, whose hint (asked whenever it may add a card
    from the hand) is a card to add: the session, and the outcome that told the hint."""
    s, outcome = bot_game("serpientes", ["table", "bot:easy", "bot:easy"], num_players=3)
    for _ in range(200):
        state = s.state
        if state.current_player == 0:
            texts = [state.action_to_text(a) for a in state.legal_actions()]
            if any(t.startswith("add ") for t in texts):
                asked = s.request("hint", {})
                assert asked.answer == (True, {"player": 0})
                told = decide(s, asked)
                assert s.expected is not None and s.expected.hint
                if s.state.public_action_text(s.state.action_from_text(s.expected.text)) != s.expected.text:
                    return s, told  # a hidden move
                texts = [s.expected.text]  # an open move (done, run): played, and on to the next turn
            outcome = s.request("choose", {"action": texts[0]})
            assert outcome.answer is not None and outcome.answer[0], outcome.answer
            continue
        outcome = decide(s, outcome)
        if s.expected is not None:
            outcome = carry_out(s)
    raise AssertionError("seat 0's hint was never a card to add")


def test_a_hint_for_a_hidden_move_goes_to_the_asking_seat_alone() -> None:
    s, told = serpientes_hinted_a_hidden_move()
    assert s.expected is not None
    card = s.expected.text
    hint = [e for e in told.events if e["type"] == "hint"]
    assert len(hint) == 1 and hint[0]["player"] == 0 and "action" not in hint[0]
    assert hint[0]["code"] == "table.hint_asked" and hint[0]["message"] == "player 0 asked for a hint: it is on " \
                                                                          "their own seat"
    public = json.dumps([told.events, told.public])
    assert card not in public  # nor its card: "add left" says which card
    mine, *others = told.private
    assert mine is not None and mine["hint"] == card and mine["choice"] == card  # confirm takes it
    assert all(o is None for o in others)  # the computer players' seats: shown nowhere
    confirmed = s.button("confirm")
    assert [e["action"] for e in confirmed.events if e["type"] == "action"] == [s.match.public_log[-1]]
    assert s.expected is None and s.scene() is not None  # the hint is over once its move is played


def test_a_computer_that_cannot_decide_warns_and_is_asked_again_by_next_or_hint() -> None:
    s, outcome = bot_game("contigo", ["bot:easy", "table"])
    ask = next(e for e in outcome.effects if isinstance(e, Decide))
    before = list(s.match.record.actions)
    warned = s.decision_failed(ask, "RuntimeError")
    warning = [e for e in warned.events if e["type"] == "warning"]
    assert len(warning) == 1 and warning[0]["code"] == "table.computer_failed"
    assert warning[0]["message"] == ("the computer player of player 0 could not decide (RuntimeError): "
                                     "press next to ask it again")
    assert warned.scene is not None and warned.scene.warning
    assert s.match.record.actions == before and s.expected is None
    assert not [e for e in s.judge().effects if isinstance(e, Decide)]  # not asked again by itself
    again = s.button("next")
    asked = [e for e in again.effects if isinstance(e, Decide)]
    assert len(asked) == 1 and asked[0].moves == ask.moves and again.scene is not None and not again.scene.warning
    s.decision_failed(asked[0], "RuntimeError")
    retried = s.request("hint", {})
    assert retried.answer == (True, {"player": 0})
    told = decide(s, retried)
    assert [e["type"] for e in told.events] == ["expected"] and not s.scene().warning


def test_a_restart_after_a_computer_could_not_decide_asks_it_again() -> None:
    s, outcome = bot_game("contigo", ["bot:easy", "table"])
    ask = next(e for e in outcome.effects if isinstance(e, Decide))
    s.decision_failed(ask, "RuntimeError")
    record = Record.from_dict(s.match.record.to_dict())
    restarted = session_for("contigo", chance="auto")
    restarted.resume(record)
    opened = restarted.opened([])
    asked = [e for e in opened.effects if isinstance(e, Decide)]
    assert len(asked) == 1 and asked[0].moves == ask.moves and asked[0].seat == ask.seat


@pytest.mark.parametrize("hint", [False, True])
def test_a_decision_for_a_position_the_game_has_left_is_no_warning(hint: bool) -> None:
    s, outcome = bot_game("contigo", ["bot:easy", "table"])
    ask = next(e for e in outcome.effects if isinstance(e, Decide))
    stale = Decide(ask.moves - 1, ask.game, ask.options, ask.public_view, ask.private_view, ask.seat, ask.level,
                   ask.seed, hint)
    assert s.decision_failed(stale, "RuntimeError") == Outcome()


def test_a_computer_players_legal_moves_are_never_lit_only_its_move() -> None:
    s, outcome = bot_game("contigo", ["bot:easy", "table"])
    assert s.state.current_player == 0 and s.expected is None and s.state.legal_actions()
    assert s.referee.targets(s.sensed) == {}  # the board may not make the computer's moves: none is even indexed
    waiting = s.scene()
    assert not waiting.targets and not waiting.place and s.public_state()["targets"] == []
    told = decide(s, outcome)
    assert told.scene is not None and not told.scene.targets and told.scene.carry_out  # what it decided alone

