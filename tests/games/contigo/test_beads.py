"""Bead moves: the alignment game's k-to-k-steps move, the capture game's spreads, wrap-around."""

from __future__ import annotations

from controller.games.contigo.geometry import PIT_INDEX, PIT_NAMES

from .builder import play, position

ALIGN = {"r": "a1 b5 c3 d4 e2 f6", "b": "f1 e5 d3 c4 b2 a6"}
CAP = {"r": "a1 b1 c1 e1 f1 a2 b2 c2 d2 e2", "R": "d1", "b": "a6 b6 d6 e6 f6 b5 c5 d5 e5 f5", "B": "c6"}


def bead_texts(state, src: str) -> set[str]:
    return {t for t in map(state.action_to_text, state.legal_actions()) if t.startswith(f"beads {src}>")}


def test_ring_runs_clockwise_through_the_corners():
    assert PIT_NAMES[:8] == ("nw", "n-a", "n-b", "n-c", "n-d", "n-e", "n-f", "ne")
    assert PIT_NAMES[-1] == "w-6" and PIT_INDEX["se"] == 14 and PIT_INDEX["sw"] == 21


def test_alignment_bead_move_goes_k_pits_either_way_wrapping_past_a_corner():
    state = position(ALIGN, phase="beads")
    # w-6 is just before the north-west corner going clockwise: 2 beads go to n-a (clockwise, past nw)
    # or to w-4 (anticlockwise); 1 bead goes to nw or w-5.
    assert bead_texts(state, "w-6") == {"beads w-6>n-a 2", "beads w-6>w-4 2", "beads w-6>nw 1", "beads w-6>w-5 1"}
    after = play(state, "beads w-6>n-a 2")
    view = after.physical_view()
    assert view["pit:w-6"] == 0 and view["pit:n-a"] == 4 and view["pit:nw"] == 2
    assert after.current_player == 1 and after.phase == "move" and after.turn == 1
    back = play(position(ALIGN, phase="beads", pits={"n-a": 3}), "beads n-a>w-5 3")
    assert back.physical_view()["pit:w-5"] == 5 and back.physical_view()["pit:n-a"] == 0


def test_alignment_bead_move_refusals():
    from .builder import refusal

    state = position(ALIGN, phase="beads")
    reason = refusal(state, "beads w-6>n-b 2")
    assert "exactly 2 pits" in reason and "n-a" in reason and "w-4" in reason
    assert "holds 2 beads: you cannot take 3" in refusal(state, "beads w-6>n-b 3")
    assert "one pit" in refusal(state, "beads w-6>nw 1,n-a 1")
    assert "first move a pawn" in refusal(position(ALIGN), "beads w-6>nw 1")
    assert "now move beads" in refusal(state, "a1-a3")


def test_a_pit_can_hold_and_move_many_beads():
    # 20 beads in e-1: 20 pits clockwise is w-5 ... (e-1 is index 13, 13 + 20 = 33 = 5 -> n-e)
    state = position(ALIGN, phase="beads", pits={"e-1": 20}, bank="sw")
    texts = bead_texts(state, "e-1")
    assert "beads e-1>n-e 20" in texts  # clockwise 20
    assert "beads e-1>e-6 5" in texts  # anticlockwise 5
    # 14 beads reach the opposite pit either way: one action, not two
    assert sum(1 for t in texts if t.endswith(" 14")) == 1
    assert len(texts) == 2 * 20 - 1


def test_bead_move_count_in_the_opening():
    state = position(ALIGN, phase="beads")
    assert len(state.legal_actions()) == 28 * 4


def test_capture_spread_within_k_pits_one_direction():
    state = position(CAP, phase="beads", pits={"n-f": 3}, game="capture")
    texts = bead_texts(state, "n-f")
    # k=1: 2 ways; k=2: 3 spreads each way; k=3: 10 spreads each way
    assert len(texts) == 2 + 6 + 20
    assert "beads n-f>ne 1,e-6 1,e-5 1" in texts
    assert "beads n-f>e-5 3" in texts and "beads n-f>n-c 3" in texts
    assert "beads n-f>n-e 2,n-c 1" in texts
    after = play(state, "beads n-f>ne 1,e-5 2")
    view = after.physical_view()
    assert (view["pit:n-f"], view["pit:ne"], view["pit:e-6"], view["pit:e-5"]) == (0, 3, 2, 4)


def test_capture_spread_wraps_past_a_corner():
    state = position(CAP, phase="beads", game="capture")
    after = play(state, "beads w-6>nw 1,n-a 1")
    view = after.physical_view()
    assert (view["pit:w-6"], view["pit:nw"], view["pit:n-a"]) == (0, 3, 3)
    anti = play(position(CAP, phase="beads", game="capture"), "beads n-a>w-6 2")
    assert anti.physical_view()["pit:w-6"] == 4


def test_capture_spread_refusals():
    from .builder import refusal

    state = position(CAP, phase="beads", pits={"n-f": 3}, game="capture")
    assert "3 pits that follow it in one direction" in refusal(state, "beads n-f>ne 1,e-4 2")
    assert "one direction" in refusal(state, "beads n-f>n-e 1,ne 1")
    assert "cannot take 4" in refusal(state, "beads n-f>ne 4")


def test_spread_limit_bounds_the_spreads():
    state = position(CAP, phase="beads", pits={"n-f": 7}, game="capture", spread_limit=5)
    from .builder import refusal

    assert "spread limit" in refusal(state, "beads n-f>ne 3,e-6 4")
    after = play(state, "beads n-f>e-4 7")  # 7 beads, all into one pit 4 steps away
    assert after.physical_view()["pit:e-4"] == 9
    texts = bead_texts(state, "n-f")
    spreads_up_to_5 = 2 * (1 + 3 + 10 + 35 + 126)
    assert len(texts) == spreads_up_to_5 + 2 * 6 + 2 * 7


def test_bead_actions_are_distinct_physical_changes():
    state = position(CAP, phase="beads", pits={"n-f": 6, "e-3": 4}, bank="sw", game="capture")
    views = {tuple(sorted(state.apply(a).physical_view().items())) for a in state.legal_actions()}
    assert len(views) == len(state.legal_actions())
