"""The Cairo-tiling board: counts, adjacency and the bridgeable pairs derived from the geometry."""

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from controller.games.jeocinco import GAME
from controller.games.jeocinco import board as B


def test_one_hundred_pentagons_twenty_five_per_colour() -> None:
    assert B.NUM_PENTS == 100
    assert Counter(B.PENT_COLOUR) == {0: 25, 1: 25, 2: 25, 3: 25}
    assert all(len(s) == 5 for s in B.PENT_SLOTS)
    assert B.PENT_NAMES[:4] == ["A1N", "A1E", "A1S", "A1W"]


def test_283_slots_217_shared_66_on_the_border() -> None:
    assert B.NUM_SLOTS == 283
    counts = Counter(len(p) for p in B.SLOT_PENTS)
    assert counts == {2: 217, 1: 66}
    assert len(set(B.SLOT_NAMES)) == 283


def test_a_shared_slot_joins_two_colours() -> None:
    for pents in B.SLOT_PENTS:
        if len(pents) == 2:
            assert B.PENT_COLOUR[pents[0]] != B.PENT_COLOUR[pents[1]]
    # so the colour masks count every slot side once: 25 pentagons x 5 sides
    assert [bin(m).count("1") for m in B.COLOUR_MASK] == [125, 125, 125, 125]


def test_shared_slots_by_colour_pair() -> None:
    pairs = Counter("".join(sorted(B.COLOURS[B.PENT_COLOUR[p]] for p in ps))
                    for ps in B.SLOT_PENTS if len(ps) == 2)
    assert pairs == {"EN": 43, "NW": 43, "ES": 43, "SW": 43, "NS": 25, "EW": 20}


def test_adjacency_is_sharing_an_end_point_and_symmetric() -> None:
    for s in range(B.NUM_SLOTS):
        for t in B.SLOT_ADJ[s]:
            assert s in B.SLOT_ADJ[t]
            assert set(B.SLOT_ENDS[s]) & set(B.SLOT_ENDS[t])
    assert Counter(len(a) for a in B.SLOT_ADJ) == {5: 144, 4: 100, 3: 34, 2: 5}
    # the base of a hexagon (N|S slot) touches the other four slots of both pentagons' h points
    assert {B.SLOT_NAMES[t] for t in B.SLOT_ADJ[B.SLOT_INDEX["C3N-C3S"]]} == {
        "C3N-C3E", "C3N-C3W", "C3E-C3S", "C3S-C3W"}


def test_names_of_slots_and_tower_sockets() -> None:
    assert B.SLOT_NAMES[:5] == ("A1N-A1E", "A1N-A1S", "A1N-A1W", "A1N-A2W", "A1N-nw")
    assert [B.SLOT_NAMES[s] for s in B.PENT_SLOTS[B.PENT_INDEX["C3N"]]] == [
        "B4E-C3N", "C3N-C3E", "C3N-C3S", "C3N-C3W", "C3N-C4W"]


def test_bridgeable_pairs_in_three_families() -> None:
    assert B.NUM_BRIDGES == 262
    assert Counter(B.BRIDGE_FAMILY) == {"base": 50, "waist": 40, "diagonal": 172}
    # base: two per hexagon, across its N|S slot; waist: two per pair of horizontal neighbours,
    # across their E|W slot; diagonal: one across every slanted shared slot
    per_crossed = Counter(B.BRIDGE_CROSSED)
    fam_of_crossed = {B.BRIDGE_CROSSED[k]: B.BRIDGE_FAMILY[k] for k in range(B.NUM_BRIDGES)}
    assert Counter((fam_of_crossed[c], n) for c, n in per_crossed.items()) == {
        ("base", 2): 25, ("waist", 2): 20, ("diagonal", 1): 172}
    # every shared slot has a bridge over it; no border slot has
    assert set(per_crossed) == {s for s in range(B.NUM_SLOTS) if len(B.SLOT_PENTS[s]) == 2}


def test_with_the_half_slot_overlap_bound_only_ninety_pairs_remain() -> None:
    strict = B.find_bridges(min_overlap=0.5)
    assert len(strict) == 90
    assert {B.BRIDGE_FAMILY[B.BRIDGE_INDEX[frozenset((a, b))]] for a, b, *_ in strict} == {"base", "waist"}


def test_only_diagonal_bridges_join_two_sides_of_one_colour() -> None:
    def colours(s: int) -> set[int]:
        return {B.PENT_COLOUR[p] for p in B.SLOT_PENTS[s]}

    same = Counter((B.BRIDGE_FAMILY[k], bool(colours(a) & colours(b))) for k, (a, b) in enumerate(B.BRIDGE_SLOTS))
    assert same == {("diagonal", True): 168, ("diagonal", False): 4, ("base", False): 50, ("waist", False): 40}


def test_all_bridges_have_the_same_length() -> None:
    import math
    lengths = {round(math.dist(*B.BRIDGE_POINTS[k]), 6) for k in range(B.NUM_BRIDGES)}
    assert len(lengths) == 1


def test_bridge_geometry_parallel_facing_one_slot_between() -> None:
    for k, (a, b) in enumerate(B.BRIDGE_SLOTS):
        assert not set(B.SLOT_ENDS[a]) & set(B.SLOT_ENDS[b])
        (pa, pb) = B.BRIDGE_POINTS[k]
        crossed = [s for s in range(B.NUM_SLOTS) if s not in (a, b) and B.segments_meet(pa, pb, *B.SLOT_ENDS[s])]
        assert crossed == [B.BRIDGE_CROSSED[k]]


def test_the_bridges_over_one_slot_cross_each_other() -> None:
    for k in range(B.NUM_BRIDGES):
        for m in range(B.NUM_BRIDGES):
            if m != k and B.BRIDGE_CROSSED[m] == B.BRIDGE_CROSSED[k]:
                assert B.BRIDGE_CONFLICT[k] >> m & 1
        assert not B.BRIDGE_CONFLICT[k] >> k & 1
    assert Counter(bin(c).count("1") for c in B.BRIDGE_CONFLICT) == {8: 90, 7: 42, 5: 66, 4: 50, 6: 10, 3: 4}


def test_a_known_bridge() -> None:
    k = B.BRIDGE_INDEX[frozenset((B.SLOT_INDEX["B3E-B3S"], B.SLOT_INDEX["C3N-C3W"]))]
    assert B.BRIDGE_NAMES[k] == "B3E-B3S~C3N-C3W"
    assert B.BRIDGE_FAMILY[k] == "waist"
    assert B.SLOT_NAMES[B.BRIDGE_CROSSED[k]] == "B3E-C3W"


def test_rolls_reach_hexagons() -> None:
    assert B.hexes_for_roll(3, 2) == (12,)  # 3C
    assert [B.hex_name(h) for h in B.hexes_for_roll(6, 1)] == ["B1", "B2", "B3", "B4", "B5"]
    assert [B.hex_name(h) for h in B.hexes_for_roll(4, 5)] == ["A4", "B4", "C4", "D4", "E4"]
    assert len(B.hexes_for_roll(6, 5)) == 25


def test_channels_slots_towers_bridges() -> None:
    names = [c.name for c in GAME.channels()]
    assert len(names) == 283 + 100 + 262
    assert "slot:C3N-C3E" in names and "tower:C3N" in names and "bridge:B3E-B3S~C3N-C3W" in names
    assert all(c.kind == "presence" and c.maximum == 1 for c in GAME.channels())


def test_a_bridge_over_a_hexagon_always_rests_on_a_slot_of_that_hexagon() -> None:
    for k, (a, b) in enumerate(B.BRIDGE_SLOTS):
        for h in range(25):
            if B.HEX_MASK[h] >> B.BRIDGE_CROSSED[k] & 1:
                assert B.HEX_MASK[h] >> a & 1 or B.HEX_MASK[h] >> b & 1


@pytest.fixture(scope="module")
def derived() -> dict[str, Any]:
    """The bridge data derived from the geometry (some seconds: once for the module)."""
    return B.derive_bridge_data()


def test_the_shipped_bridge_data_equals_the_derivation_from_the_geometry(derived: dict[str, Any]) -> None:
    # bridges.json spares every start-up the derivation; it must never disagree with it
    assert json.loads(B.BRIDGE_DATA_FILE.read_text(encoding="utf-8")) == derived, \
        "bridges.json is stale: run python scripts/jeocinco_bridges.py"
    assert [list(ab) for ab in B.BRIDGE_SLOTS] == [[a, b] for a, b, *_ in derived["bridges"]]
    assert list(B.BRIDGE_CROSSED) == [c for _, _, c, *_ in derived["bridges"]]
    assert [[list(pa), list(pb)] for pa, pb in B.BRIDGE_POINTS] == [[pa, pb] for *_, pa, pb in derived["bridges"]]
    assert list(B.BRIDGE_CONFLICT) == [sum(1 << m for m in ms) for ms in derived["conflicts"]]


def test_a_missing_or_stale_bridge_data_file_falls_back_to_the_derivation(derived: dict[str, Any], tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(B, "BRIDGE_DATA_FILE", tmp_path / "missing.json")
    assert B._bridge_data() == derived
    stale = tmp_path / "stale.json"
    stale.write_text(json.dumps({**derived, "slots": derived["slots"][::-1], "bridges": []}), encoding="utf-8")
    monkeypatch.setattr(B, "BRIDGE_DATA_FILE", stale)
    assert B._bridge_data() == derived
