"""Hidden information, the physical (sensor) view, physical cards, and the pictures."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from controller.games import IllegalAction
from controller.games.serpientes import GAME
from controller.games.serpientes.picture import render_svg
from controller.i18n import saying
from tests.games.serpientes.builder import field, play, state

# Two positions that differ only in what players hold secretly: same hand sizes and sequence
# lengths, other cards.
SECRET_A = dict(players=3, phase="program", hands="SSLLR/SSSSS/LLRRR", seqs="LLS/SRL/-")
SECRET_B = dict(players=3, phase="program", hands="SSSSS/LLRRR/SSLLR", seqs="SRR/LLL/-")


def test_public_view_and_text_never_hold_hands_sequences_or_deck_order() -> None:
    a, b = state(**SECRET_A), state(**SECRET_B)
    assert a.to_text() != b.to_text()  # the omniscient texts differ...
    assert a.public_text() == b.public_text()  # ...what everyone sees does not
    assert a.public_view() == b.public_view()
    json.dumps(a.public_view())  # JSON-able
    pub = a.public_text()
    assert "hands=#5/#5/#5" in pub and "seqs=#3/#3/#0" in pub and "deck=#" in pub
    assert "SSLLR" not in pub and "LLS" not in pub


def test_a_players_view_holds_only_his_own_secrets() -> None:
    a = state(**SECRET_A)
    v0, v1 = a.private_view(0), a.private_view(1)
    assert v0 == {"player": 0, "hand": ["straight", "straight", "left", "left", "right"],
                  "sequence": ["left", "left", "straight"]}
    assert v1 == {"player": 1, "hand": ["straight"] * 5, "sequence": ["straight", "right", "left"]}
    # player 0's view is the same whatever the others hold
    other = state(players=3, phase="program", hands="SSLLR/LLRRR/SSSSS", seqs="LLS/SLL/-")
    assert other.private_view(0) == v0 and other.private_view(1) != v1
    with pytest.raises(ValueError):
        a.private_view(3)


def test_cards_drawn_or_programmed_are_public_only_as_counts() -> None:
    s = state(players=2, phase="draw", hands="SSLL/-")
    a = s.action_from_text("draw right")
    assert s.public_action_text(a) == "draw" and s.action_to_text(a) == "draw right"
    p = state(players=2, phase="play", hands="SSLLR/-")
    assert p.public_action_text(p.action_from_text("add left")) == "add"
    r = state(players=2, phase="run", seqs="LS/-")
    assert r.public_action_text(r.action_from_text("step left")) == "step left"
    after = play(r, "step left")
    assert after.public_view()["revealed"] == ["left"]  # a revealed card is public


# ---------------------------------------------------------------- physical view
def test_channels_are_312_edges_and_169_intersections() -> None:
    chans = GAME.channels()
    names = [c.name for c in chans]
    assert len(names) == 481 == len(set(names))
    assert sum(n.startswith("edge:h:") for n in names) == 156
    assert sum(n.startswith("edge:v:") for n in names) == 156
    assert sum(n.startswith("pt:") for n in names) == 169
    assert {"edge:h:12:11", "edge:v:11:12", "pt:12:12"} <= set(names)


def test_view_shows_sticks_on_edges_and_tokens_on_intersections() -> None:
    s = state(players=2, snakes="c2.c3.d3/g13.g12", tok="j9")
    on = {k for k, v in s.physical_view().items() if v}
    # c2-c3 is vertical (r1,c2)-(r2,c2); c3-d3 horizontal (r2,c2)-(r2,c3); g13-g12 vertical at c6
    assert on == {"edge:v:1:2", "edge:h:2:2", "edge:v:11:6", "pt:8:9"}


def test_each_step_changes_the_view_by_one_stick_and_other_actions_by_nothing() -> None:
    s = state(players=2, phase="play", hands="SSLLR/SSLLR", seqs="S/-", supply="0,4",
              snakes="c2.c3.c4/g13.g12", tok="j9")
    v0 = s.physical_view()
    s = play(s, "run")
    assert s.physical_view() == v0
    s2 = play(s, "step straight")  # the tail c2-c3 moves to c4-c5
    diff = {k for k in v0 if v0[k] != s2.physical_view()[k]}
    assert diff == {"edge:v:1:2", "edge:v:3:2"}
    p = state(players=2, phase="discard", hands="SSLLR/SSLLR")
    assert play(p, "discard").physical_view() == p.physical_view()
    q = state(players=2, phase="play", hands="SSLLR/SSLLR")
    assert play(q, "add left").physical_view() == q.physical_view()
    assert play(q, "done").physical_view() == q.physical_view()


# ---------------------------------------------------------------- physical cards
def test_physical_cards_the_referee_learns_the_card_from_the_stick() -> None:
    s = state(players=2, dealing="physical", phase="run", seqs="2/0", hands="3/5")
    assert [s.action_to_text(a) for a in s.legal_actions()] == ["step straight", "step left", "step right"]
    views = {}
    for a in s.legal_actions():
        views[s.action_to_text(a)] = s.apply(a).physical_view()
    # every card puts the stick somewhere else: the sensed stick tells which card was played
    assert len({json.dumps(v, sort_keys=True) for v in views.values()}) == 3
    s = play(s, "step right")
    assert field(s, "snakes") == "g1.g2.f2/g13.g12" and s.sequence_length(0) == 1
    assert s.public_view()["revealed"] == ["right"]


def test_physical_cards_crashes_from_the_supply_look_alike() -> None:
    # at the north edge heading north: straight goes off the board, left and right run along the
    # border and are fine; with a stick from the supply the crash leaves the board unchanged.
    s = state(players=2, dealing="physical", phase="run", seqs="1/0", snakes="g2.g1/g13.g12")
    crash = s.apply(s.action_from_text("step straight"))
    assert field(crash, "last") == "crash-off" and crash.physical_view() == s.physical_view()


def test_physical_cards_hands_are_counts_and_refill_to_five() -> None:
    s = state(players=2, dealing="physical", phase="discard", hands="2/5", seqs="3/0")
    s = play(s, "discard")
    assert s.phase == "play" and s.hand_size(0) == 5
    s = play(s, "add", "add")
    assert s.hand_size(0) == 3 and s.sequence_length(0) == 5
    with pytest.raises(IllegalAction):
        s.action_from_text("add straight")  # the referee does not know a face-down card
    assert s.private_view(0) == {"player": 0, "hand_size": 3, "sequence_length": 5, "cards": "physical"}


def test_physical_cards_draw_only_what_is_left() -> None:
    # 2 players: 24 cards; 5 + 2 in hands and 16 in sequences leave 1 card to draw
    s = state(players=2, dealing="physical", phase="discard", hands="2/5", seqs="8/8")
    s = play(s, "keep")
    assert s.hand_size(0) == 3


# ---------------------------------------------------------------- pictures
def test_svg_shows_grid_tokens_sticks_and_heads() -> None:
    s = state(players=2, snakes="c2.c3.d3/g13.g12", tok="d4,j9")
    svg = render_svg(s)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert svg.count('class="stick p0"') == 2 and svg.count('class="stick p1"') == 1
    assert svg.count('class="token"') == 2 and svg.count('class="head') == 2
    hidden = render_svg(state(**SECRET_A))
    assert hidden == render_svg(state(**SECRET_B))  # no secrets in the picture


def test_picture_from_the_public_view_is_the_displays_board_with_its_target_rings() -> None:
    from controller.display.render import board_svg

    s = state(players=3, snakes="c2.c3.d3/m7.l7/g13.g12", tok="d4,j9")
    view = s.public_view()
    targets = ["edge:h:2:3", "edge:v:2:3", "pt:3:3", "sensor:9"]
    assert GAME.picture(view) == render_svg(s)
    english = saying("en")  # as the display says it where the state names no language and no players
    assert GAME.picture(view, targets, english) == board_svg({"game": "serpientes", "board_view": view,
                                                              "targets": targets})
    assert GAME.picture(view, targets).count('class="mark target"') == 3  # a name that is no channel: no ring
    assert GAME.channel_xy("pt:3:3") == (150, 150) and GAME.channel_xy("edge:h:2:3") == (170, 110)
    assert GAME.channel_xy("edge:v:2:3") == (150, 130) and GAME.channel_xy("sensor:9") is None
    assert all(GAME.channel_xy(c.name) is not None for c in GAME.channels())


def test_render_text_draws_the_board() -> None:
    s = state(players=2, snakes="c2.c3.d3/g13.g12", tok="j9")
    pic = s.render_text()
    lines = pic.splitlines()
    assert lines[0].split() == list("abcdefghijklm")
    row3 = next(line for line in lines if line.startswith(" 3 "))
    assert "1-1-A" in row3  # c3, the stick c3-d3 and the head at d3 of player 0 (the first, shown as 1)
    assert "o" in next(line for line in lines if line.startswith(" 9 "))


def test_the_running_player_sees_where_the_next_stick_goes() -> None:
    s = state(players=2, phase="run", snakes="g2.g1/g13.g12", seqs="LS/-", hands="-/SSLLR")
    assert s.private_view(0)["next_steps"] == [{
        "action": "step left", "from": "g1", "to": "f1", "edge": "edge:h:0:5", "stick_from": "supply",
        "outcome": "placed"}]
    assert "next_steps" not in s.private_view(1) and "next_steps" not in s.public_view()
    p = state(players=2, dealing="physical", phase="run", seqs="1/0", snakes="g2.g1/g13.g12")
    outcomes = {x["action"]: x["outcome"] for x in p.step_preview()}
    assert outcomes == {"step straight": "crash-off", "step left": "placed", "step right": "placed"}


def test_a_players_position_text_shows_his_cards_and_only_counts_of_the_others() -> None:
    a, b = state(**SECRET_A), state(**SECRET_B)
    assert "hands=SSLLR/#5/#5" in a.private_text(0) and "seqs=LLS/#3/#0" in a.private_text(0)
    assert "hands=#5/SSSSS/#5" in a.private_text(1) and "seqs=#3/SRL/#0" in a.private_text(1)
    # player 2 sees the same in both positions: his own cards are the same, the rest is hidden
    c = state(players=3, phase="program", hands="SSSSS/SSLLR/LLRRR", seqs="SRL/LLS/-")
    assert a.private_text(2) == c.private_text(2) and a.to_text() != c.to_text()
    assert a.private_text(2) != b.private_text(2)  # ...but his own hand does show
