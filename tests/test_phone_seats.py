"""Phone seats (``phone``): the seat's move comes as a ``play`` request carrying the seat's secret,
which only the seat's private topic carries; it is then lit and carried out at the table as a
computer player's move is. Authority against the shipped ACL and real pages: ``tests/display/test_phone_play.py``."""

from __future__ import annotations

from typing import Any

from controller import schemas
from controller.i18n import People, say
from controller.session import Decide, Outcome, Session
from tests.test_seats import bot_game
from tests.test_session import session_for, show, verdict_of


def play(s: Session, seat: int, secret: str | None, action: str) -> Outcome:
    args: dict[str, Any] = {"seat": seat, "action": action}
    if secret is not None:
        args["secret"] = secret
    return s.request("play", args)


def refusal(outcome: Outcome) -> str:
    assert outcome.answer is not None and not outcome.answer[0], outcome.answer
    assert outcome.refusal is not None, outcome.answer
    return outcome.refusal.code


def test_a_phone_seat_waits_for_its_move_and_only_its_private_state_has_its_secret_and_moves() -> None:
    s, outcome = bot_game("contigo", ["phone", "table"])
    assert s.state.current_player == 0
    assert not [e for e in outcome.effects if isinstance(e, Decide)]  # nobody decides for a phone
    mine, other = s.private_state(0), s.private_state(1)
    assert "secret" not in other and "moves" not in other
    assert len(mine["secret"]) == 64 and mine["moves"]
    assert {m["action"] for m in mine["moves"]} == {s.state.action_to_text(a) for a in s.state.own_actions()}
    assert list(schemas.validator("player").iter_errors(mine)) == []
    assert mine["secret"] not in str(s.public_state())
    for move in mine["moves"]:  # a pawn, then its destination
        start, end = move["action"].split("-")
        assert move["taps"] == [[f"sq:{start}", 1], [f"sq:{end}", 1]]
    play(s, 0, mine["secret"], mine["moves"][0]["action"])
    show(s, s.expected_view())
    s.judge()
    assert s.state.current_player == 0  # the same turn goes on with the beads
    view, beads = s.state.physical_view(), s.private_state(0)["moves"]
    assert beads
    for move in beads:  # the pit the beads are lifted from (one tap), then a tap per bead put in each pit
        (source, lift), *puts = move["taps"]
        assert lift == 1 and source == f"pit:{move['action'].split()[1].split('>')[0]}"
        changes = s.state.physical_changes(s.state.action_from_text(move["action"]))
        assert sum(n for _, n in puts) == view[source] - changes[source]


def test_a_phone_move_is_kept_announced_lit_and_taken_once_the_table_carries_it_out() -> None:
    s, _ = bot_game("contigo", ["phone", "table"])
    secret, move = s.private_state(0)["secret"], s.private_state(0)["moves"][0]["action"]
    told = play(s, 0, secret, move)
    assert told.answer == (True, {"action": move})
    expected = [e for e in told.events if e["type"] == "expected"]
    assert len(expected) == 1 and expected[0]["code"] == "table.carry_out" and expected[0]["action"] == move
    assert [d.text for d in s.decisions] == [move]  # for the journal, before it is shown
    assert told.scene is not None and told.scene.carry_out
    assert s.private_state(0)["moves"] == []  # played: nothing more to tap until it is carried out
    assert refusal(play(s, 0, secret, move)) == "seat.already_played"
    show(s, s.expected_view())
    judged = s.judge()
    assert verdict_of(judged) == "applied"
    assert [(e["by"], e["action"]) for e in judged.events if e["type"] == "action"] == [("phone", move)]
    assert s.expected is None


def test_a_phone_move_refused_for_want_of_authority_says_why_coded() -> None:
    s, _ = bot_game("contigo", ["phone", "phone"])
    other_board = session_for("contigo", chance="auto")
    other_board.board.id = "elsewhere"
    other_board.request("new_game", {"seats": ["phone", "phone"], "seed": 11})
    mine, theirs = s.private_state(0)["secret"], s.private_state(1)["secret"]
    assert mine != theirs != other_board.private_state(0)["secret"]
    move = s.private_state(0)["moves"][0]["action"]
    assert refusal(play(s, 0, None, move)) == "seat.no_secret"
    assert refusal(play(s, 0, theirs, move)) == "seat.wrong_secret"  # another seat's
    assert refusal(play(s, 0, other_board.private_state(0)["secret"], move)) == "seat.wrong_secret"
    assert refusal(play(s, 1, theirs, move)) == "seat.not_your_turn"
    # the phone is told in the board's words, the seat named as the person (never "seat 1" for the second)
    people = People.of(s.state.player_info(), "es")
    turn = play(s, 1, theirs, move).refusal
    assert turn is not None and say(turn, "es", people) == f"{people[1]}: no es tu turno" == "azul: no es tu turno"
    assert refusal(play(s, 5, theirs, move)) == "seat.not_a_phone"
    assert refusal(s.request("choose", {"action": move})) == "seat.played_away"
    illegal = play(s, 0, mine, "beads nowhere 9")
    assert illegal.answer is not None and not illegal.answer[0] and illegal.refusal is not None
    assert illegal.refusal.code == "table.refused"
    assert s.expected is None and s.decisions == [] and s.state.current_player == 0


def test_a_new_game_makes_new_secrets_and_a_seat_at_the_table_has_none() -> None:
    s, _ = bot_game("contigo", ["phone", "table"])
    old = s.private_state(0)["secret"]
    s.request("new_game", {"seats": ["table", "phone"], "seed": 12})
    assert "secret" not in s.private_state(0)
    assert s.private_state(1)["secret"] != old
    move = s.private_state(0)["choices"] or [s.state.action_to_text(s.state.own_actions()[0])]
    assert refusal(play(s, 0, old, move[0])) == "seat.not_a_phone"


def test_a_card_played_from_the_phone_has_no_trace_and_is_taken_at_once() -> None:
    s, _ = bot_game("serpientes", ["phone", "phone"], num_players=2, options={"two_players": True, "tokens": 1})
    seat = s.state.current_player
    mine = s.private_state(seat)
    silent = next(m for m in mine["moves"] if m["taps"] == [])
    told = play(s, seat, mine["secret"], silent["action"])
    assert told.answer is not None and told.answer[0], told.answer
    assert s.expected is None and not s.decisions[1:]
    assert [e["by"] for e in told.events if e["type"] == "action"] == ["phone"]
    assert not [e for e in told.events if e["type"] == "expected"]
    assert told.public is not None and told.public["last_action"] != silent["action"]  # the card stays hidden
