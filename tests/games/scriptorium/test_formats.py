"""Scriptorium text formats, options, channels, views, SVG and the rounds-to-sync study."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from controller.games import BadPosition, ChannelKind, IllegalAction
from controller.games.scriptorium import GAME
from controller.games.scriptorium.actions import Move
from controller.games.scriptorium.picture import render_svg
from controller.games.scriptorium.position import problems
from controller.i18n import saying

from .helpers import pos, text
from .sync_study import rounds_to_alignment, summary

A = "3,0,1,0"


def test_initial_position_text() -> None:
    s = GAME.new_state(None, 3)
    assert s.to_text() == ("scriptorium players=3 outer_line=same round_limit=200 start=random phase=setup-centre"
                           " round=0 first=- turn=- offsets=0,0,0,0 active=centre pawns=hub,hub,hub pins=- die=-"
                           " number=- pending=- winner=-")
    assert GAME.state_from_text(s.to_text()).to_text() == s.to_text()


@pytest.mark.parametrize("bad", [
    text(pawns="i3,i3"),                                    # two pawns on one space
    text(pawns="o0,hub", pins="o0"),                        # a pawn on a pin
    text(pins="o2"),                                        # yellow plays in no 2-player game
    text(pins="m0"),                                        # pins only on the Outer ring
    text(round="01"),                                       # not canonical
    text(offsets="0,0,12,0"),
    text(offsets="0,0,0"),
    text(players="7"),
    text(turn="yellow"),                                    # no such player in a 2-player game
    text(phase="move"),                                     # a move without a die
    text(phase="move", die="green", offsets=A, pawns="i3,hub"),   # no green target: the turn would have ended
    text(phase="rotate", pending="inner", number="-"),
    text(phase="clock", offsets="0,0,0,0"),                 # an aligned board never turns
    text(winner="red"),                                     # winner while playing
    text(round="200"),                                      # limit reached but not over
    text(outer_line="maybe"),
    text(start="1,2,3"),
    text() + " ",
    text().replace("players=2 outer_line", "outer_line"),
])
def test_bad_positions_are_refused(bad: str) -> None:
    assert GAME.state_from_text(text(pins="o1")).visited(1) == 1     # orange's pin is fine
    with pytest.raises(BadPosition):
        GAME.state_from_text(bad)


def test_action_texts_round_trip_and_garbage_is_refused() -> None:
    s = pos(offsets=A, pawns="i3,hub")
    for t in ("roll blue", "number 6", "i3-m2", "hub-i11", "i3-hub", "turn outer left 11", "turn inner right 3",
              "set middle 0", "first orange"):
        assert s.action_to_text(s.action_from_text(t)) == t
    for t in ("roll pink", "number 7", "number 0", "i3-x2", "i12-m2", "turn ring left 1", "turn inner up 1",
              "turn inner left 12", "first violet", "i03-m2", "roll  blue"):
        with pytest.raises(IllegalAction):
            s.action_from_text(t)
    with pytest.raises(IllegalAction) as err:
        s.apply("roll blue")                                 # a string is not an action
    assert "not a Scriptorium action" in err.value.reason


def test_options_are_validated() -> None:
    assert GAME.new_state().options == {"outer_line": "same", "round_limit": 200, "start": "random"}
    for bad in ({"outer_line": "both"}, {"round_limit": 0}, {"round_limit": "9"}, {"start": "0,0,0,12"},
                {"colour": "red"}):
        with pytest.raises(ValueError):
            GAME.new_state(bad)
    for n in (1, 7):
        with pytest.raises(ValueError):
            GAME.new_state(None, n)


def test_channels_and_physical_view() -> None:
    chans = {c.name: c for c in GAME.channels(None, 4)}
    assert len(chans) == 4 + 36 + 1
    assert chans["enc:middle"].kind == ChannelKind.OFFSET and chans["enc:middle"].maximum == 11
    assert chans["pos:outer:11"].kind == ChannelKind.PRESENCE
    assert chans["hub"].kind == ChannelKind.COUNT and chans["hub"].maximum == 4
    s = pos(players=4, offsets="3,5,1,7", pawns="hub,i3,hub,m0", pins="o7")
    view = s.physical_view()
    assert set(view) == set(chans)
    assert view["hub"] == 2 and view["pos:inner:3"] == 1 and view["pos:middle:0"] == 1 and view["pos:outer:7"] == 1
    assert sum(view[f"pos:{r}:{p}"] for r in ("inner", "middle", "outer") for p in range(12)) == 3
    assert [view[f"enc:{p}"] for p in ("centre", "inner", "middle", "outer")] == [3, 5, 1, 7]


def test_the_referee_tells_every_move_and_turn_apart_by_the_sensors() -> None:
    s = pos(offsets=A, pawns="i3,hub").apply(("colour", 2))           # yellow: two targets
    views = [s.apply(a).physical_view() for a in s.legal_actions()]
    assert views[0] != views[1] and all(v != s.physical_view() for v in views)
    s = s.apply(s.action_from_text("i3-m3")).apply(("number", 3))
    turned = s.apply(s.legal_actions()[0]).physical_view()
    assert turned["enc:inner"] == 3 and turned != s.physical_view()
    # a ring turned the wrong way (right 3) reads offset 9: no legal action gives that view
    wrong = {**turned, "enc:inner": 9}
    assert all(s.apply(a).physical_view() != wrong for a in s.legal_actions())


def test_public_view_is_json_and_shows_what_the_leds_need() -> None:
    s = pos(offsets=A, pawns="i3,hub").apply(("colour", 2))
    pv = s.public_view()
    json.dumps(pv)
    assert pv["targets"] == ["i2", "m3"] and pv["die"] == "yellow" and pv["phase"] == "move"
    assert pv["colours"]["middle"][2] == "orange" and pv["active_part"] == "centre"
    s = s.apply(s.action_from_text("i3-m3")).apply(("number", 5))
    assert s.public_view()["required_turn"] == {"part": "inner", "direction": "left", "spaces": 5, "why": "die"}
    assert s.private_view(0) == {}


def test_svg_rendering_is_well_formed() -> None:
    s = pos(players=3, offsets=A, pawns="i3,hub,hub", pins="o0").apply(("colour", 2))
    svg = render_svg(s)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert svg.count("pawn</title>") == 3 and "black pin" in svg
    assert svg.count('class="legal"') == 2          # the two legal targets, in the highlight
    assert "render_text" not in svg and len(s.render_text().splitlines()) >= 7


def test_rounds_to_sync_in_seeded_games() -> None:
    """A small sample of the study documented in docs/rules/scriptorium.md (die turns included)."""
    values = [rounds_to_alignment(seed, 4) for seed in range(40)]
    s = summary(values)
    assert s["never"] == 0
    assert 5 <= s["median"] <= 20
    assert rounds_to_alignment(3, 4) == values[3]   # seeded: replays exactly


def test_junk_actions_are_refused_with_a_reason() -> None:
    s = pos(offsets=A, pawns="i3,hub").apply(("colour", 2))
    for junk in (None, ("move", 999, 3), ("turn", 9, "left", 1), ("fly",), [1, 2], ("move",)):
        with pytest.raises(IllegalAction) as err:
            s.apply(junk)  # type: ignore[arg-type]  # junk on purpose
        assert err.value.reason
    with pytest.raises(BadPosition):
        GAME.state_from_text(text(phase="clock", turn="red", round=1, offsets=A))   # red did not close the round


def test_actions_are_values_equal_to_their_tagged_tuples() -> None:
    s = pos(offsets=A, pawns="i3,hub").apply(("colour", 2))
    move = s.legal_actions()[0]
    assert isinstance(move, Move) and move == ("move", move.source, move.target)
    assert hash(move) == hash(("move", move.source, move.target))
    assert s.action_from_text(s.action_to_text(move)) == move


def test_refusals_carry_a_code_and_params_in_the_games_notation() -> None:
    s = pos(offsets=A, pawns="i3,hub").apply(("colour", 2))
    with pytest.raises(IllegalAction) as err:
        s.apply(s.action_from_text("i3-i4"))
    refusal = err.value.refusal
    assert refusal.code == "scriptorium.wrong_colour"
    assert dict(refusal.params) == {"target": "i4", "colour": "blue", "rolled": "yellow"}
    assert refusal.text == err.value.reason == "i4 is blue, but the colour die shows yellow"
    with pytest.raises(IllegalAction) as err:
        s.action_from_text("fly away")
    assert err.value.refusal.code == "scriptorium.no_such_text"


def test_announcements_carry_a_code_and_params() -> None:
    s = pos(offsets=A, pawns="hub,o1", turn="orange").apply(("colour", 0))   # orange leaves its own Outer space
    after = s.apply(s.legal_actions()[0])
    pins = [a for a in s.announcements(s.legal_actions()[0], after) if a["type"] == "pin"]
    assert pins == [{"type": "pin", "player": 1, "text": "a black pin on o1", "code": "scriptorium.pin",
                     "params": {"space": "o1"}}]


def test_problems_lists_everything_wrong_with_a_position_and_the_parser_names_the_first() -> None:
    good = pos(offsets=A, pawns="i3,hub").position
    assert problems(good) == []
    broken = good._replace(winner=0, pending=1)            # a winner mid-game, a part pending at a roll
    assert [m.code for m in problems(broken)] == ["scriptorium.position.part_not_pending",
                                                  "scriptorium.position.winner_too_early"]
    with pytest.raises(BadPosition, match="a pending part only while a circle change is being resolved"):
        GAME.state_from_text(text(offsets=A, pawns="i3,hub", pending="inner", winner="red"))


def test_the_picture_is_drawn_from_the_public_view_alone() -> None:
    s = pos(players=3, offsets=A, pawns="i3,hub,hub", pins="o0").apply(("colour", 2))
    view = json.loads(json.dumps(s.public_view()))               # what a display receives
    assert GAME.picture(view) == render_svg(s)
    # the LEDs' targets: the ring spaces are ringed by the picture's own legal targets, a ring to turn as a target
    marked = GAME.picture(view, ["pos:inner:2", "enc:inner"])
    assert marked.count('class="mark target"') == 1 and "target: enc:inner" in marked
    assert marked.count('class="legal"') == 2
    # as the display draws the same marks today
    from controller.display.render import board_svg
    assert board_svg({"game": "scriptorium", "board_view": view, "targets": ["pos:inner:2", "enc:inner"]}) == \
        GAME.picture(view, ["pos:inner:2", "enc:inner"], saying("en"))


def test_channel_xy_places_every_channel_in_the_pictures_coordinates() -> None:
    assert GAME.channel_xy("hub") == (0.0, 0.0)
    x, y = GAME.channel_xy("pos:outer:0") or (0.0, 0.0)
    assert abs(x) < 1e-9 and y < -150                          # position 0 at the top of the Outer band
    assert GAME.channel_xy("enc:middle") == (0.0, -129.0)
    assert all(GAME.channel_xy(c.name) is not None for c in GAME.channels(None, 2))
    assert GAME.channel_xy("pos:outer:12") is None and GAME.channel_xy("nothing") is None
