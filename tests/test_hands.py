"""What the hands do, judged without threads or clocks: a move the hands could still carry on to
another is held (shown, not recorded), one nothing could follow from is taken at once, a move that
was only on the way is corrected, and a whole Contigo spread is read from the counts at once."""

from __future__ import annotations

import pytest

from controller.games import Game
from controller.games.base import Action
from controller.games.contigo.board import PIT_NAMES
from controller.games.contigo.state import ContigoState
from controller.games.record import Match
from controller.referee import Referee
from controller.session import Session
from tests.test_referee_bounds import after, reach, referee
from tests.test_session import kinds, session_for, show, verdict_of

# Noughts and crosses to a draw but the last square: a2 is x's only move.
ONE_LEFT = ["first 0", "a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2"]


def toy_referee(toy_game: Game, actions: list[str]) -> tuple[Match, Referee]:
    match = Match.new("toy", seed=3)
    for text in actions:
        match.apply_text(text)
    return match, Referee(match, toy_game.channels())


def board(**pieces: int) -> dict[str, int]:
    view = {f"sq:{c}{r}": 0 for r in "123" for c in "abc"}
    view.update({f"sq:{k}": v for k, v in pieces.items()})
    return view


def test_a_move_with_somewhere_else_to_go_is_held_not_applied(toy_game: Game) -> None:
    match, ref = toy_referee(toy_game, ["first 0"])
    verdict = ref.judge(board(b2=1), hold=True)
    assert verdict.kind == "applied" and verdict.held and verdict.actions == ("b2",)
    assert match.record.actions == ["first 0"], "a held move is not recorded"
    assert ref.preview is not None and ref.preview.to_text() == "....x.... 1"  # what the LEDs show
    verdict = ref.judge(board(b2=1))  # the board has been still: now it is taken
    assert verdict.kind == "applied" and not verdict.held and match.record.actions == ["first 0", "b2"]


def test_a_held_move_taken_is_the_state_its_preview_made_not_worked_out_again(toy_game: Game) -> None:
    """Taken once the board has been still, a held move's state is the one its preview made (with
    what was built for it while the LEDs showed it); another move than the one held is applied."""
    match, ref = toy_referee(toy_game, ["first 0"])
    ref.judge(board(b2=1), hold=True)
    preview = ref.preview
    assert ref.judge(board(b2=1)).kind == "applied" and match.state is preview
    match, ref = toy_referee(toy_game, ["first 0"])
    ref.judge(board(b2=1), hold=True)
    preview = ref.preview
    assert ref.judge(board(c3=1)).actions == ("c3",) and match.state is not preview
    assert match.record.actions == ["first 0", "c3"]


def test_the_only_move_there_is_is_final_and_taken_at_once(toy_game: Game) -> None:
    match, ref = toy_referee(toy_game, ONE_LEFT)
    shown = {**match.state.physical_view(), "sq:a2": 1}
    assert ref.final((match.state.action_from_text("a2"),), frozenset({("sq:a2", 1)}))
    verdict = ref.judge(shown, hold=True)
    assert verdict.kind == "applied" and not verdict.held and match.record.actions[-1] == "a2"


def test_a_piece_lifted_to_be_put_elsewhere_is_no_takeback_while_the_hands_move(toy_game: Game) -> None:
    match, ref = toy_referee(toy_game, ["first 0", "b2"])
    verdict = ref.judge(board(), hold=True)  # the piece just put down, lifted again
    assert verdict.kind == "takeback" and verdict.held and match.record.actions == ["first 0", "b2"]
    assert ref.preview is match.history[-2]


def test_a_move_that_was_only_on_the_way_is_corrected(toy_game: Game) -> None:
    match, ref = toy_referee(toy_game, ["first 0", "b2"])  # the piece rested on b2 long enough
    assert ref.judge(board(a1=1)).kind == "violation"  # the other player's turn: no move of his
    corrected = ref.correct(board(a1=1), since=1)
    assert corrected is not None
    undone, verdict = corrected
    assert undone == ["b2"] and verdict.kind == "applied" and verdict.actions == ("a1",)
    assert match.record.actions == ["first 0", "a1"] and "not b2" in verdict.message
    assert ref.correct(board(a1=1, c3=2), since=1) is None  # a move of the other player: no ghost


def contigo_with_a_pawn_moved() -> Session:
    """A Contigo session whose board shows a pawn move other moves could still follow (it is held)."""
    s = session_for("contigo", seed=3)
    s.request("roll", {})
    state = s.state
    pawn = next(a for a in state.legal_actions()
                if not s.referee.final((a,), frozenset(state.physical_changes(a).items())))
    show(s, state.apply(pawn).physical_view())
    return s


def test_a_held_move_is_told_only_once_the_board_is_still() -> None:
    s = contigo_with_a_pawn_moved()
    held = s.judge(settled=False)
    verdict = held.verdict
    assert verdict is not None and verdict.held and s.held == verdict and held.held
    assert not held.events and held.public is None and len(s.match.record.actions) == 1
    scene = held.scene  # the LEDs already show the move: the bead moves are the targets
    assert scene is not None and scene.targets and all(c.startswith("pit:") for c in scene.targets)
    assert s.public_state()["moves"] == 1 and s.public_state()["verdict"] == "in_sync"
    taken = s.judge()
    assert verdict_of(taken) == "applied" and s.held is None and not taken.held
    assert kinds(taken.events) == ["action"]


def test_a_held_moves_public_state_is_worked_out_while_the_hands_rest_and_told_as_it_was() -> None:
    """The loop's idle steps during the commit window work out the held move's public view (off the
    move's path once it is taken); the state told then is that very view, and the same as one worked
    out afresh."""
    s = contigo_with_a_pawn_moved()
    assert s.judge(settled=False).held
    assert s.unready  # the held move's state is still to be worked out
    while s.unready:
        s.prepare()
    ahead = s.preview
    assert ahead is not None
    view = s._public_part(ahead).view
    taken = s.judge()
    assert verdict_of(taken) == "applied" and s.state is ahead
    told = taken.public
    assert told is not None and told["board_view"] is view  # not worked out again
    assert told["board_view"] == ahead.public_view() and told["moves"] == len(s.match.record.actions)


def test_a_wrong_board_is_told_only_once_the_board_is_still() -> None:
    s = session_for("contigo", seed=3)
    s.request("roll", {})
    show(s, {"pit:nw": 7})
    held = s.judge(settled=False)
    assert verdict_of(held) == "violation" and s.held is not None
    assert not held.events and s.verdict.kind == "in_sync"
    told = s.judge()
    assert verdict_of(told) == "violation" and kinds(told.events) == ["violation"]


def test_a_ghost_is_corrected_with_an_event_until_someone_acts() -> None:
    s = session_for("contigo", seed=3)
    s.request("roll", {})
    state = s.state
    # Two targets of one pawn: the hands rested on the first, then carried it on to the second.
    pawns = [p for p in state.legal_actions() if isinstance(p, tuple)]
    pawn = next(p for p in pawns if sum(q[1] == p[1] for q in pawns) >= 2)
    assert isinstance(pawn, tuple)
    other = next(q for q in pawns if q[1] == pawn[1] and q != pawn)
    show(s, state.apply(pawn).physical_view())
    assert verdict_of(s.judge()) == "applied"
    show(s, state.apply(other).physical_view())
    outcome = s.judge()
    verdict = outcome.verdict
    assert verdict is not None and verdict.kind == "applied" and verdict.actions == (state.action_to_text(other),)
    corrected, action = outcome.events
    assert corrected["type"] == "corrected" and corrected["undone"] == [state.action_to_text(pawn)]
    assert corrected["actions"] == [state.action_to_text(other)] and action["type"] == "action"
    assert s.match.record.actions[1:] == [state.action_to_text(other)]
    s.button("next")  # someone acted: the move stands
    show(s, state.apply(pawn).physical_view())
    assert verdict_of(s.judge()) == "violation" and s.match.record.actions[1:] == [state.action_to_text(other)]


def spread_position() -> tuple[Match, ContigoState, int]:
    """A Contigo capture game at a bead move, and a pit holding at least three beads."""
    match = reach("contigo", {"game": "capture"}, 6, lambda state: state.phase_ == "beads" and max(state.pits) >= 3)
    state = match.state
    assert isinstance(state, ContigoState)
    return match, state, state.pits.index(max(state.pits))


def test_a_whole_spread_in_one_reading_is_recognised() -> None:
    """Issue 19.2: the pick-up and two drops, one on either side, settling together."""
    match, state, src = spread_position()
    take = state.action_from_text(f"take {PIT_NAMES[src]} 3")
    hand = state.apply(take)
    cw, acw = PIT_NAMES[(src + 1) % 28], PIT_NAMES[(src - 2) % 28]
    drops = [hand.action_from_text(f"drop {cw} 1")]
    drops.append(hand.apply(drops[0]).action_from_text(f"drop {acw} 2"))
    verdict = referee(match).judge(after(state, take, *drops))
    assert verdict.kind == "applied", verdict
    assert sorted(verdict.actions) == sorted([f"take {PIT_NAMES[src]} 3", f"drop {cw} 1", f"drop {acw} 2"])
    now = match.state
    assert isinstance(now, ContigoState)
    assert now.phase_ in ("move", "beads") and now.current_player != state.current_player


def test_three_drops_in_one_reading_and_a_pawn_move_with_its_whole_spread_are_recognised() -> None:
    match, state, src = spread_position()
    match.apply(state.action_from_text(f"take {PIT_NAMES[src]} 3"))
    hand = match.state
    texts = [f"drop {PIT_NAMES[(src + d) % 28]} 1" for d in (1, -1, 3)]
    drops, now = [], hand
    for text in texts:
        drops.append(now.action_from_text(text))
        now = now.apply(drops[-1])
    verdict = referee(match).judge(after(hand, *drops))
    assert verdict.kind == "applied" and sorted(verdict.actions) == sorted(texts), verdict
    # The pawn move, the pick-up and its drops, all in one reading.
    match = reach("contigo", {"game": "capture"}, 9, lambda st: st.phase_ == "move" and st.turn >= 2)
    moving = match.state
    assert isinstance(moving, ContigoState)
    state = moving
    pawn, beads = next((p, state.apply(p)) for p in state.legal_actions()
                       if state.apply(p).current_player == state.current_player and max(state.apply(p).pits) >= 2)
    src = beads.pits.index(max(beads.pits))
    take = beads.action_from_text(f"take {PIT_NAMES[src]} 2")
    hand = beads.apply(take)
    one = hand.action_from_text(f"drop {PIT_NAMES[(src + 1) % 28]} 1")
    two = hand.apply(one).action_from_text(f"drop {PIT_NAMES[(src - 1) % 28]} 1")
    verdict = referee(match).judge(after(state, pawn, take, one, two))
    assert verdict.kind == "applied" and len(verdict.actions) == 4, verdict
    assert verdict.actions[0] == state.action_to_text(pawn)


def test_a_held_move_is_dropped_when_the_sensor_link_goes_down() -> None:
    s = contigo_with_a_pawn_moved()
    assert s.judge(settled=False).held
    s.link_down("unplugged")
    assert verdict_of(s.judge()) == "in_sync" and s.held is None and s.preview is None  # nothing left to commit
    assert len(s.match.record.actions) == 1


def test_a_held_move_once_taken_keeps_the_move_table_its_preview_built(toy_game: Game,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.support.toy import ToyState

    _, ref = toy_referee(toy_game, ["first 0"])
    asked: list[Action] = []
    changes = ToyState.physical_changes

    def counted(self: ToyState, a: Action) -> dict[str, int]:
        asked.append(a)
        return changes(self, a)

    monkeypatch.setattr(ToyState, "physical_changes", counted)
    ref.judge(board(b2=1), hold=True)
    lit = ref.targets(state=ref.preview)  # the LEDs show the held move: its state's table is built
    asked.clear()
    ref.judge(board(b2=1))
    assert ref.targets() == lit and not asked, "the table was built again for the same position"


def test_a_takeback_that_was_only_on_the_way_is_corrected(toy_game: Game) -> None:
    """A hand rested where the board looked like an earlier position (the takeback was taken), then
    went on to show the position it took back, plus a move: that move, and nothing taken back."""
    s = session_for("toy")
    s.request("roll", {})
    player = s.state.current_player
    show(s, board(b2=player + 1))
    s.judge()
    show(s, board(b2=player + 1, a1=2 - player))
    s.judge()
    show(s, board(b2=player + 1))  # the other player's piece lifted long enough: taken back
    assert verdict_of(s.judge()) == "takeback" and s.match.record.actions[-1] == "b2"
    show(s, board(b2=player + 1, a1=2 - player, c3=player + 1))
    outcome = s.judge()
    verdict = outcome.verdict
    assert verdict is not None and verdict.kind == "applied" and verdict.actions == ("a1", "c3")
    assert s.match.record.actions[-3:] == ["b2", "a1", "c3"]
    corrected, *actions = outcome.events
    assert corrected["type"] == "corrected" and corrected["undone"] == [] and corrected["actions"] == ["a1", "c3"]
    assert "taking back a1 was only on the way" in corrected["message"]
    assert [(e["type"], e["action"]) for e in actions] == [("action", "a1"), ("action", "c3")]
