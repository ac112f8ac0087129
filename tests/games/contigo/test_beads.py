"""Bead moves: the alignment game's k-to-k-steps move, the capture game's spreads, wrap-around."""

from __future__ import annotations

from controller.games.contigo.board import PIT_INDEX, PIT_NAMES
from controller.games.contigo.state import ContigoState

from .builder import play, position

ALIGN = {"r": "a1 b5 c3 d4 e2 f6", "b": "f1 e5 d3 c4 b2 a6"}
CAP = {"r": "a1 b1 c1 e1 f1 a2 b2 c2 d2 e2", "R": "d1", "b": "a6 b6 d6 e6 f6 b5 c5 d5 e5 f5", "B": "c6"}


def bead_texts(state: ContigoState, src: str) -> set[str]:
    return {t for t in map(state.action_to_text, state.legal_actions()) if t.startswith(f"beads {src}>")}


def test_ring_runs_clockwise_through_the_corners() -> None:
    assert PIT_NAMES[:8] == ("nw", "n-a", "n-b", "n-c", "n-d", "n-e", "n-f", "ne")
    assert PIT_NAMES[-1] == "w-6" and PIT_INDEX["se"] == 14 and PIT_INDEX["sw"] == 21


def test_alignment_bead_move_goes_k_pits_either_way_wrapping_past_a_corner() -> None:
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


def test_alignment_bead_move_refusals() -> None:
    from .builder import refusal

    state = position(ALIGN, phase="beads")
    reason = refusal(state, "beads w-6>n-b 2")
    assert "exactly 2 pits" in reason and "n-a" in reason and "w-4" in reason
    assert "holds 2 beads: you cannot take 3" in refusal(state, "beads w-6>n-b 3")
    assert "one pit" in refusal(state, "beads w-6>nw 1,n-a 1")
    assert "first move a pawn" in refusal(position(ALIGN), "beads w-6>nw 1")
    assert "now move beads" in refusal(state, "a1-a3")


def test_a_pit_can_hold_and_move_many_beads() -> None:
    # 20 beads in e-1: 20 pits clockwise is w-5 ... (e-1 is index 13, 13 + 20 = 33 = 5 -> n-e)
    state = position(ALIGN, phase="beads", pits={"e-1": 20}, bank="sw")
    texts = bead_texts(state, "e-1")
    assert "beads e-1>n-e 20" in texts  # clockwise 20
    assert "beads e-1>e-6 5" in texts  # anticlockwise 5
    # 14 beads reach the opposite pit either way: one action, not two
    assert sum(1 for t in texts if t.endswith(" 14")) == 1
    assert len(texts) == 2 * 20 - 1


def test_bead_move_count_in_the_opening() -> None:
    state = position(ALIGN, phase="beads")
    assert len(state.legal_actions()) == 28 * 4


def _texts(state: ContigoState, prefix: str) -> set[str]:
    return {t for t in map(state.action_to_text, state.legal_actions()) if t.startswith(prefix)}


def _pits(state: ContigoState, *names: str) -> tuple[int, ...]:
    view = state.physical_view()
    return tuple(view[f"pit:{n}"] for n in names)


def test_capture_bead_move_takes_then_drops_within_range_one_direction() -> None:
    state = position(CAP, phase="beads", pits={"n-f": 3}, game="capture", spread="one_way")
    assert _texts(state, "take n-f") == {"take n-f 1", "take n-f 2", "take n-f 3"}
    assert not _texts(state, "beads ")
    hand = play(state, "take n-f 3")
    # the beads are in the hand: the pit reads empty, the same player drops them
    assert hand.phase == "drop" and hand.current_player == 0 and _pits(hand, "n-f") == (0,)
    assert hand.public_view()["hand"] == {"pit": "n-f", "taken": 3, "in_hand": 3,
                                          "directions": ["clockwise", "anticlockwise"]}
    # range 3: ne, e-6, e-5 clockwise; n-e, n-d, n-c anticlockwise; 1 to 3 beads each
    assert _texts(hand, "drop ") == {f"drop {p} {c}" for p in ("ne", "e-6", "e-5", "n-e", "n-d", "n-c")
                                     for c in (1, 2, 3)}
    one = play(hand, "drop ne 1")
    assert _texts(one, "drop ") == {f"drop {p} {c}" for p in ("ne", "e-6", "e-5") for c in (1, 2)}
    after = play(one, "drop e-5 2")
    assert _pits(after, "n-f", "ne", "e-6", "e-5") == (0, 3, 2, 4)
    assert after.current_player == 1 and after.phase == "move" and after.turn == 1


def test_capture_any_pick_up_may_be_spread_over_its_range() -> None:
    # the seed: take any or all the beads of a pit and drop them in one or more pits within range;
    # 7 beads go 3 and 4, 12 beads one per pit over 12 pits
    state = position(CAP, phase="beads", pits={"n-f": 7}, game="capture")
    after = play(state, "take n-f 7", "drop ne 3", "drop e-4 4")
    assert _pits(after, "n-f", "ne", "e-4") == (0, 5, 6) and after.current_player == 1
    twelve = position(CAP, phase="beads", pits={"w-1": 12}, bank="ne", game="capture")
    pits = ["sw", "s-a", "s-b", "s-c", "s-d", "s-e", "s-f", "se", "e-1", "e-2", "e-3", "e-4"]
    assert twelve.action_from_text("take w-1 12") in twelve.legal_actions()
    after = play(twelve, "take w-1 12", *(f"drop {p} 1" for p in reversed(pits)))
    assert _pits(after, "w-1", *pits) == (0, *[3] * 12) and after.current_player == 1
    assert "drop e-5 1" not in _texts(play(twelve, "take w-1 12"), "drop e-5")  # 13 pits away


def test_capture_more_beads_may_be_picked_up_from_the_same_pit_before_the_first_drop() -> None:
    state = position(CAP, phase="beads", pits={"n-f": 5}, game="capture")
    hand = play(state, "take n-f 2", "take n-f 3")
    assert hand.public_view()["hand"]["taken"] == 5 and _pits(hand, "n-f") == (0,)
    assert "drop e-3 5" in _texts(hand, "drop e-3")  # 5 pits clockwise: the range is all five beads


def test_capture_spread_wraps_past_a_corner() -> None:
    state = position(CAP, phase="beads", game="capture")
    after = play(state, "take w-6 2", "drop nw 1", "drop n-a 1")
    assert _pits(after, "w-6", "nw", "n-a") == (0, 3, 3)
    anti = play(position(CAP, phase="beads", game="capture"), "take n-a 2", "drop w-6 2")
    assert anti.physical_view()["pit:w-6"] == 4


def test_capture_bead_refusals() -> None:
    from .builder import refusal

    state = position(CAP, phase="beads", pits={"n-f": 3}, game="capture")
    assert refusal(state, "take n-f 4") == "the pit n-f holds 3 beads: you cannot take 4"
    assert "picked up from one pit (take n-f 3)" in refusal(state, "beads n-f>ne 1,e-6 1,e-5 1")
    assert refusal(state, "drop ne 1") == "pick beads up from a pit first (take n-f 3)"
    hand = play(state, "take n-f 3")
    assert refusal(hand, "drop e-4 1") == ("3 beads from n-f may only be dropped in the pits within 3 of it,"
                                           " on either side round the ring")
    assert refusal(hand, "drop ne 4") == "you hold 3 beads, not 4"
    assert refusal(hand, "drop n-f 1") == "beads taken from n-f must leave it"
    assert refusal(hand, "take e-3 1") == "beads come from one pit per turn, and you took yours from n-f"
    one = play(hand, "drop ne 1")
    assert refusal(one, "take n-f 1") == "the beads from n-f are being dropped: drop the other 2 beads in your hand"
    one_way = play(position(CAP, phase="beads", pits={"n-f": 3}, game="capture", spread="one_way"), "take n-f 3")
    assert refusal(one_way, "drop e-4 1") == ("3 beads from n-f may only be dropped in the 3 pits that follow it"
                                              " in one direction around the ring")
    assert refusal(play(one_way, "drop ne 1"), "drop n-e 1") == (
        "the beads from n-f go one way round the ring, and your drops so far went the other way: n-e is not among"
        " the 3 pits that follow n-f that way")
    assert "first move a pawn" in refusal(position(CAP, game="capture"), "take n-f 1")
    assert "one action: beads n-a>n-c 2" in refusal(position(ALIGN, phase="beads"), "take n-a 2")


def test_capture_spread_goes_within_range_on_either_side_by_default() -> None:
    """The seed limits only the distance ("no podría mover ninguna canica a más de 5 hoyos de donde las
    recogió"): after a bead clockwise, the next may go anticlockwise; one_way is the variant."""
    state = position(CAP, phase="beads", pits={"n-f": 3}, game="capture")
    assert state.options["spread"] == "either_side"
    after = play(state, "take n-f 3", "drop ne 1", "drop n-e 2")
    assert _pits(after, "n-f", "ne", "n-e") == (0, 3, 4) and after.current_player == 1
    wide = play(state, "take n-f 3", "drop e-5 1")  # 3 clockwise
    assert _texts(wide, "drop ") == {f"drop {p} {n}" for p in ("ne", "e-6", "e-5", "n-e", "n-d", "n-c")
                                     for n in (1, 2)}
    assert wide.public_view()["hand"]["directions"] == ["clockwise", "anticlockwise"]
    one_way = play(position(CAP, phase="beads", pits={"n-f": 3}, game="capture", spread="one_way"),
                   "take n-f 3", "drop ne 1")
    assert _texts(one_way, "drop ") == {f"drop {p} {n}" for p in ("ne", "e-6", "e-5") for n in (1, 2)}


def test_a_whole_spread_is_read_from_the_counts_in_one_go() -> None:
    """``actions_for_changes``: a pick-up and its drops, from the pit counts alone, in any phase of the
    bead move; nothing for a board that is no spread."""
    state = position(CAP, phase="beads", pits={"n-f": 5}, game="capture")

    def read(s: ContigoState, **pits: int) -> list[str]:
        view = s.physical_view()
        changes = {f"pit:{p.replace('_', '-')}": view[f"pit:{p.replace('_', '-')}"] + n for p, n in pits.items()}
        return [s.action_to_text(a) for a in s.actions_for_changes(changes) or []]

    assert read(state, n_f=-3, ne=1, n_e=2) == ["take n-f 3", "drop n-e 2", "drop ne 1"]
    assert read(state, n_f=-3, ne=1) == ["take n-f 3", "drop ne 1"]  # two beads still in the hand
    hand = play(state, "take n-f 3")
    assert read(hand, ne=1, e_6=1, n_d=1) == ["drop n-d 1", "drop ne 1", "drop e-6 1"]
    assert read(hand, n_f=-2, ne=5) == ["take n-f 2", "drop ne 5"]  # the rest of the pit, before any drop
    assert read(state, n_f=-3, e_3=-1, ne=4) == []  # two pits lost beads
    assert read(play(hand, "drop ne 1"), n_f=-1) == []  # more from the pit once a bead is down
    assert position(ALIGN, phase="beads").actions_for_changes({"pit:n-f": 0}) is None


def test_spread_limit_variant_sends_larger_pick_ups_into_one_pit() -> None:
    from .builder import refusal

    state = position(CAP, phase="beads", pits={"n-f": 7}, game="capture", spread_limit=5)
    hand = play(state, "take n-f 7")
    assert refusal(hand, "drop ne 3") == ("more than 5 beads (the spread limit) go all into one pit;"
                                          " 7 beads cannot be split")
    assert _texts(hand, "drop ") == {f"drop {p} 7" for p in ("ne", "e-6", "e-5", "e-4", "e-3", "e-2", "e-1",
                                                               "n-e", "n-d", "n-c", "n-b", "n-a", "nw", "w-6")}
    after = play(hand, "drop e-4 7")  # 7 beads, all into one pit 4 steps away
    assert after.physical_view()["pit:e-4"] == 9
    assert play(state, "take n-f 5", "drop ne 2", "drop e-6 3").current_player == 1  # 5 may still be split


def test_bead_actions_are_distinct_physical_changes() -> None:
    for state in (position(CAP, phase="beads", pits={"n-f": 6, "e-3": 4}, bank="sw", game="capture"),
                  play(position(CAP, phase="beads", pits={"n-f": 20}, bank="sw", game="capture"), "take n-f 20"),
                  position(ALIGN, phase="beads", pits={"e-1": 20}, bank="sw")):
        views = {tuple(sorted(state.apply(a).physical_view().items())) for a in state.legal_actions()}
        assert len(views) == len(state.legal_actions())
