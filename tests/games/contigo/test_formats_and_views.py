"""Position and action texts, options, physical and public views, and apply == legal_actions."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from controller.games import BadPosition, ChannelKind, IllegalAction
from controller.games.contigo import GAME
from controller.games.contigo.board import NPITS, NSQ
from controller.games.contigo.state import ContigoState
from controller.games.record import sample_chance
from controller.i18n import People, saying

from .builder import position


def test_initial_position_text() -> None:
    assert GAME.new_state().to_text() == (
        "contigo game=alignment form=straight win=four turn_limit=1000 rounds=0 spread_limit=0 spread=either_side"
        " players=2 board=b....r/.r..b./..br../..rb../.b..r./r....b pits=" + ",".join(["2"] * 28)
        + " to=chance phase=start hand=- turn=0 captured=0,0 result=none")


@pytest.mark.parametrize(("options", "players"), GAME.configurations())
def test_initial_positions_round_trip(options: dict[str, Any], players: int) -> None:
    state = GAME.new_state(options, players)
    assert GAME.state_from_text(state.to_text()).to_text() == state.to_text()
    assert state.options == options


@pytest.mark.parametrize("change", [
    ("pits=2,", "pits=3,"),  # 57 beads
    ("pits=2,", "pits=02,"),  # not canonical
    ("board=b....r", "board=b....."),  # a red pawn missing
    ("board=b....r", "board=b....R"),  # doubles only in the capture game
    ("board=b....r", "board=g....r"),  # no green in a 2-player game
    ("board=b....r/", "board=b....r./"),  # rank too long
    ("players=2", "players=3"),
    ("form=straight", "form=X"),
    ("turn_limit=1000", "turn_limit=0"),
    ("to=chance", "to=red"),
    ("phase=start", "phase=dance"),
    ("result=none", "result=red"),
    ("captured=0,0", "captured=1,0"),
    ("captured=0,0", "captured=0"),
    ("contigo ", "contigo  "),
])
def test_bad_positions_are_refused(change: tuple[str, str]) -> None:
    text = GAME.new_state().to_text()
    old, new = change
    assert old in text
    with pytest.raises(BadPosition):
        GAME.state_from_text(text.replace(old, new, 1))


def test_beads_in_the_hand_round_trip_and_bad_hands_are_refused() -> None:
    from .test_beads import CAP

    state = position(CAP, phase="beads", pits={"n-f": 5}, game="capture", spread="one_way")
    one = state.apply(state.action_from_text("take n-f 5")).apply(state.action_from_text("drop ne 2"))
    text = one.to_text()
    assert " phase=drop hand=n-f:5:3:cw turn=0 " in text and ",0,4," in text  # n-f 0, ne 2+2
    assert GAME.state_from_text(text).to_text() == text
    either = text.replace("spread=one_way", "spread=either_side")  # either side: both ways stay open
    with pytest.raises(BadPosition, match="both ways stay open"):
        GAME.state_from_text(either)
    hand = GAME.state_from_text(either.replace(":cw ", ":both ")).hand
    assert hand is not None and hand.ways == 3
    for old, new in (("hand=n-f:5:3:cw", "hand=-"),  # phase drop without a hand
                     ("hand=n-f:5:3:cw", "hand=n-f:5:4:cw"),  # 57 beads
                     ("hand=n-f:5:3:cw", "hand=n-f:2:3:cw"),  # more in the hand than taken
                     ("hand=n-f:5:3:cw", "hand=n-f:5:3:up"),
                     ("phase=drop hand=n-f:5:3:cw", "phase=beads hand=n-f:5:3:cw")):
        with pytest.raises(BadPosition):
            GAME.state_from_text(text.replace(old, new, 1))
    with pytest.raises(BadPosition, match="both ways"):
        GAME.state_from_text(play_texts(state, "take n-f 5").replace("n-f:5:5:both", "n-f:5:5:cw"))
    with pytest.raises(BadPosition, match="spread limit"):
        GAME.state_from_text(text.replace("spread_limit=0", "spread_limit=4"))


def play_texts(state: ContigoState, *texts: str) -> str:
    for t in texts:
        state = state.apply(state.action_from_text(t))
    return state.to_text()


def test_capture_position_checks_captured_counts() -> None:
    text = GAME.new_state({"game": "capture"}).to_text()
    assert "board=bbBbbb/.bbbbb/....../....../rrrrr./rrrRrr" in text
    with pytest.raises(BadPosition, match="captured"):
        GAME.state_from_text(text.replace("board=bbBbbb", "board=bb.bbb"))
    fine = text.replace("board=bbBbbb", "board=b.Bbbb").replace("captured=0,0", "captured=1,0")
    assert GAME.state_from_text(fine).captured == (1, 0)
    with pytest.raises(BadPosition, match="one double"):
        GAME.state_from_text(text.replace("board=bbBbbb", "board=bbBbbB"))


@pytest.mark.parametrize(("options", "players", "message"), [
    ({}, 3, "2 or 4"),
    ({"game": "capture"}, 4, "capture game is for 2"),
    ({"win": "five"}, 4, "five"),
    ({"win": "five", "game": "capture"}, 2, "five"),
    ({"turn_limit": 0}, 2, "turn_limit"),
    ({"turn_limit": True}, 2, "turn_limit"),
    ({"spread_limit": 57}, 2, "spread_limit"),
    ({"spread_limit": -1}, 2, "spread_limit"),
    ({"form": "l"}, 2, "form"),
    ({"game": "chess"}, 2, "game"),
])
def test_bad_options_are_refused(options: dict[str, Any], players: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GAME.new_state(options, players)


def test_action_texts_parse_and_refuse_garbage() -> None:
    state = GAME.new_state()
    assert state.action_from_text(" C3-C5 ") == ("m", 14, 26)
    assert state.action_from_text("beads n-a>n-b 1, n-c 2") == ("b", 1, ((2, 1), (3, 2)))
    assert state.action_from_text("start blue") == ("start", 1)
    for text in ("c3-c9", "c3c5", "pass c3", "beads n-a", "beads n-a>n-b 0", "beads n-a>n-b 1,n-b 1",
                 "beads x-1>n-b 1", "start green", "beads n-a>n-b one"):
        with pytest.raises(IllegalAction):
            state.action_from_text(text)


def test_foreign_actions_are_refused_cleanly() -> None:
    state = position({"r": "a1 b5 c3 d4 e2 f6", "b": "f1 e5 d3 c4 b2 a6"})
    for action in (None, (), ("m",), ("m", 1, 99), ("b", 0, ()), ("b", 0, ((0, 1),)), ("z", 1, 2), "c3-c5"):
        with pytest.raises(IllegalAction):
            state.apply(action)


def test_channels_and_physical_codes() -> None:
    channels = {c.name: c for c in GAME.channels({"game": "capture"}, 2)}
    assert len(channels) == NSQ + NPITS
    assert channels["sq:a1"].kind == ChannelKind.PIECE and channels["sq:a1"].maximum == 4
    assert channels["pit:n-a"].kind == ChannelKind.COUNT and channels["pit:n-a"].maximum == 56
    assert {c.maximum for c in GAME.channels({}, 4) if c.kind == ChannelKind.PIECE} == {7}
    view = GAME.new_state({"game": "capture"}).physical_view()
    assert (view["sq:a1"], view["sq:d1"], view["sq:f6"], view["sq:c6"], view["sq:c3"]) == (1, 2, 3, 4, 0)
    assert view["pit:nw"] == 2 and sum(v for k, v in view.items() if k.startswith("pit:")) == 56
    view4 = GAME.new_state({}, 4).physical_view()
    assert (view4["sq:b1"], view4["sq:f2"], view4["sq:e6"], view4["sq:a5"]) == (1, 3, 5, 7)


def test_public_view_and_picture() -> None:
    state = GAME.new_state({"game": "capture"})
    pub = state.public_view()
    json.dumps(pub)
    assert pub["board"]["d1"] == {"player": "red", "double": True}
    assert pub["pits"]["n-a"] == 2 and pub["phase"] == "start" and pub["to_move"] is None
    assert state.private_view(0) == {}
    picture = state.render_text()
    assert "R" in picture and "B" in picture and len(picture.splitlines()) == 10


def _candidates(state: ContigoState, rng: random.Random) -> list[Any]:
    """Legal actions plus many near misses of every kind."""
    cands = list(state.legal_actions())
    for s in range(NSQ):
        for t in rng.sample(range(NSQ), 8):
            cands += [("m", s, t), ("p", s, t)]
    for src in range(NPITS):
        for _ in range(4):
            k = rng.randint(1, 8)
            dst = rng.randrange(NPITS)
            cands.append(("b", src, ((dst, k),)))
            a, b = sorted(rng.sample(range(NPITS), 2))
            cands.append(("b", src, ((a, rng.randint(1, 3)), (b, rng.randint(1, 3)))))
    return cands


@pytest.mark.parametrize(("options", "players"), GAME.configurations())
def test_apply_accepts_exactly_the_legal_actions(options: dict[str, Any], players: int) -> None:
    rng = random.Random(7)
    for _game in range(2):
        state = GAME.new_state(options, players)
        steps = 0
        while not state.is_terminal() and steps < 60:
            if state.current_player < 0:
                state = state.apply(sample_chance(state, rng))
                continue
            legal = set(state.legal_actions())
            for action in _candidates(state, rng):
                try:
                    state.apply(action)
                    accepted = True
                except IllegalAction as exc:
                    accepted = False
                    assert exc.reason
                assert accepted == (action in legal), (state.to_text(), action)
            state = state.apply(rng.choice(sorted(legal, key=repr)))
            steps += 1


def test_positions_of_finished_games_must_say_so() -> None:
    with pytest.raises(BadPosition, match="winning line"):
        position({"r": "a1 b1 c1 d1 a5 f4", "b": "a6 b6 d5 e5 f2 c4"})
    with pytest.raises(BadPosition, match="exactly one double"):
        position({"r": "a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2", "b": "a6 b6 d6 e6 f6 b5 c5 d5 e5 f5", "B": "c6"},
                 game="capture")
    with pytest.raises(BadPosition, match="captured 7"):
        position({"r": "a1 b1 c1 d1 e1 f1 a2 b2 c2 d2", "R": "e2", "b": "a6 b6 d6", "B": "e6"}, game="capture")


def test_problems_name_what_makes_a_position_impossible() -> None:
    from controller.games.contigo.position import problems

    position = GAME.new_state({"game": "capture"}).position
    assert problems(position) == []
    found = problems(position._replace(captured=(1, 0)))
    assert [(m.code, dict(m.params)) for m in found] == [("contigo.captured_missing", {"player": "red", "taken": "0"})]


def test_the_game_draws_its_picture_from_the_public_view_with_marks_ringed() -> None:
    import xml.etree.ElementTree as ET

    state = GAME.new_state({"game": "capture"})
    view = state.public_view()
    plain = GAME.picture(view, (), saying("en", People.of(state.player_info(), "en")))  # players by colour
    marked = GAME.picture(view, ["sq:c3", "pit:n-a", "nowhere"])
    ET.fromstring(marked)  # well-formed SVG
    assert plain.count('class="mark target"') == 0 and marked.count('class="mark target"') == 2
    assert ">d1: red double</title>" in plain and ">d1: rojo doble</title>" not in plain
    assert ">d1: doble de rojo</title>" in GAME.picture(view, (), saying("es", People.of(state.player_info(), "es")))
    xy = GAME.channel_xy("sq:c3")
    assert xy is not None
    x, y = xy
    assert f'cx="{x:.1f}" cy="{y:.1f}" r="25"' in marked
    assert GAME.channel_xy("pit:nw") is not None and GAME.channel_xy("sq:g9") is None
