"""Takebacks across chance (``docs/rules/takebacks.md``): free until the outcome after a move is
drawn; after it, an undo needs the consent of the seats played away (a phone's, the operator's for a
computer), is announced and marked in the record, and the outcome stays bound to its node."""

from __future__ import annotations

from typing import Any

import pytest

from controller.games import CHANCE
from controller.games.record import Match, Record
from controller.session import Outcome, Session
from tests.test_session import session_for, show

SEED = 4


def at_a_seen_roll(seats: list[str]) -> tuple[Session, str, str]:
    """Jeocinco with these seats and dice on the roll button: the table's seat 0 places until its
    turn ends, and the roll after it is drawn. The move and the roll, as the public log says them."""
    s = session_for("jeocinco", chance="button")
    started = s.request("new_game", {"seats": seats, "seed": SEED, "num_players": len(seats)})
    assert started.answer == (True, {"game": "jeocinco", "seed": SEED})
    for _ in range(40):  # the opening rolls and choices, then seat 0's placements
        state = s.state
        if state.current_player == CHANCE:
            rolled = s.request("roll", {})
            assert rolled.answer is not None and rolled.answer[0]
            if len(s.match.history) > 2 and s.match.history[-3].current_player == 0 and \
                    s.match.history[-2].current_player == CHANCE and s.match.public_log[-2].startswith("place"):
                return s, s.match.public_log[-2], s.match.public_log[-1]
            continue
        action = min(state.own_actions(), key=state.action_to_text)
        text, seat = state.action_to_text(action), s.parts[state.current_player]
        if seat.paired:  # the phone sends its move; the table carries it out
            assert s.request("play", {"seat": state.current_player, "secret": s.seat_secrets[state.current_player],
                                      "action": text}).answer is not None
        elif seat.decides:  # the computer's answer, as the loop hands it back
            s.decided(len(s.match.record.actions), text)
        if not seat.at_table and s.expected is not None:
            show(s, s.expected_view())
            assert s.judge().verdict is not None
        elif not seat.at_table:
            pass  # no trace on the board: taken at once
        elif state.physical_changes(action):
            show(s, state.apply(action).physical_view())
            assert s.judge().verdict is not None
        else:
            assert s.request("choose", {"action": state.action_to_text(action)}).answer is not None
    raise AssertionError("seat 0 never placed before a roll")


def asked(outcome: Outcome, kind: str) -> list[dict[str, Any]]:
    return [e for e in outcome.events if e["type"] == kind]


def test_an_undo_before_the_outcome_is_drawn_is_free() -> None:
    s, move, _ = at_a_seen_roll(["table", "phone"])
    record = Record("jeocinco", s.match.record.options, 2, list(s.match.record.keys), s.match.record.actions[:-1],
                    seats=["table", "phone"])
    s.resume(record)  # the same game, the roll not drawn yet
    assert s.state.current_player == CHANCE
    undone = s.request("undo", {})
    assert undone.answer == (True, {"undone": move}) and not asked(undone, "takeback_asked")
    assert s.match.record.takebacks == []


def test_an_undo_across_a_seen_roll_waits_for_the_phone_and_is_taken_with_its_consent() -> None:
    s, move, _ = at_a_seen_roll(["table", "phone"])
    length = len(s.match.record.actions)
    refused = s.request("undo", {})
    assert refused.answer is not None and not refused.answer[0]
    assert refused.refusal is not None and refused.refusal.code == "table.needs_consent"
    [told] = asked(refused, "takeback_asked")
    assert told["seats"] == [1] and told["action"] == move and len(s.match.record.actions) == length
    secret = s.seat_secrets[1]
    wrong = s.request("consent", {"seat": 1, "secret": "0" * 64})
    assert wrong.refusal is not None and wrong.refusal.code == "seat.wrong_secret"
    agreed = s.request("consent", {"seat": 1, "secret": secret})
    assert agreed.answer is not None and agreed.answer[0], agreed.answer
    [undo] = asked(agreed, "undo")
    assert undo["consent"] == [1] and len(s.match.record.actions) == length - 2
    assert s.match.record.takebacks == [{"at": length - 2, "undone": move, "consent": [1]}]
    # The outcome stays bound to its node: the same move again, the same roll.
    show(s, s.match.state.physical_view())
    replayed = Match(Record.from_dict(s.match.record.to_dict()))
    assert replayed.record.takebacks == s.match.record.takebacks
    assert s.request("undo", {}).answer is not None  # nothing seen after the position now: free
    assert s.match.record.takebacks[-1]["consent"] == [1]


@pytest.mark.parametrize("to_operator", [False, True])
def test_the_operator_answers_for_a_computers_seat(to_operator: bool) -> None:
    s, move, _ = at_a_seen_roll(["table", "bot:easy"])
    length = len(s.match.record.actions)
    assert s.request("undo", {}).refusal is not None
    answer = s.request("consent", {"seat": 1}, to_operator=to_operator)
    if not to_operator:  # a phone or a display could not answer for the computer
        assert answer.refusal is not None and answer.refusal.code == "seat.operator_answers"
        assert len(s.match.record.actions) == length
    else:
        assert answer.answer is not None and answer.answer[0] and len(s.match.record.actions) == length - 2
        assert s.match.record.takebacks[-1] == {"at": length - 2, "undone": move, "consent": [1]}


def test_a_seat_may_refuse_and_the_game_goes_on_as_it_is() -> None:
    s, _, roll = at_a_seen_roll(["table", "phone"])
    length = len(s.match.record.actions)
    assert s.request("undo", {}).refusal is not None
    no = s.request("consent", {"seat": 1, "secret": s.seat_secrets[1], "agree": False})
    assert no.answer == (True, {"takeback": "refused"}) and asked(no, "takeback_refused")
    assert len(s.match.record.actions) == length and s.match.public_log[-1] == roll
    late = s.request("consent", {"seat": 1, "secret": s.seat_secrets[1]})
    assert late.refusal is not None and late.refusal.code == "seat.no_takeback_asked"


def test_the_board_put_back_across_a_seen_roll_is_no_takeback_with_a_seat_away() -> None:
    """Three players, the phone third: after seat 0's turn and its roll, seat 1 at the table is to
    act, and hands put seat 0's piece back in the box. With a seat away that is no takeback."""
    s, _, _ = at_a_seen_roll(["table", "table", "phone"])
    assert s.parts[s.state.current_player].at_table
    length = len(s.match.record.actions)
    show(s, s.match.history[-3].physical_view())  # the hands lift seat 0's piece again
    judged = s.judge()
    assert judged.verdict is not None and judged.verdict.kind != "takeback"
    assert len(s.match.record.actions) == length


def test_a_game_at_the_table_alone_needs_no_consent() -> None:
    s, move, _ = at_a_seen_roll(["table", "table"])
    assert s.request("undo", {}).answer == (True, {"undone": move})
