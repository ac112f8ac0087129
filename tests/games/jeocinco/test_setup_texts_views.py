"""The opening roll and colours, text formats, options, views and the SVG picture."""

import json
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from controller.games import CHANCE, BadPosition, IllegalAction
from controller.games.jeocinco import GAME
from controller.games.jeocinco import board as B
from controller.games.jeocinco.picture import render_svg
from controller.games.jeocinco.position import board_to_text
from controller.games.jeocinco.state import JeocincoState

from .helpers import play, position, slot


def test_opening_roll_orders_play_and_colour_choice_wildcard_highest_ties_roll_again() -> None:
    s = GAME.new_state(None, 3)
    assert s.phase == "opening" and s.current_player == CHANCE
    assert [s.action_to_text(a) for a, _ in s.chance_outcomes()] == [
        "roll 1", "roll 2", "roll 3", "roll 4", "roll 5", "roll *"]
    s = play(s, "roll 4", "roll *", "roll 4")  # players 0 and 2 tie on 4
    assert s.phase == "opening"
    s = play(s, "roll 2", "roll 5")  # only the tied players roll again: 0 then 2
    assert s.phase == "colour" and s.position.order == (1, 2, 0)
    assert s.current_player == 1
    s = play(s, "colour S")
    assert s.current_player == 2
    with pytest.raises(IllegalAction, match="colour S is already taken by player 1"):
        s.apply(s.action_from_text("colour S"))
    s = play(s, "colour N", "colour E")
    assert s.position.colours == (1, 2, 0)  # player 0 E, player 1 S, player 2 N
    assert s.phase == "roll" and s.position.order[s.position.turn] == 1  # the highest roll starts


def _turns_after_an_opening(options: dict[str, Any], rounds: int = 2) -> tuple[JeocincoState, list[int]]:
    """Four players roll 1, 2, 3, 4: who plays each turn of the first rounds."""
    s = play(GAME.new_state(options, 4), "roll 1", "roll 2", "roll 3", "roll 4")
    assert s.position.order == (3, 2, 1, 0)
    choosers = []
    for colour in "NESW":  # colours are chosen in roll order, highest first, whatever the turn order
        choosers.append(s.current_player)
        s = play(s, f"colour {colour}")
    assert choosers == [3, 2, 1, 0]
    turns = []
    for _ in range(4 * rounds):
        s = play(s, "roll *+")
        turns.append(s.current_player)
        while s.phase == "place":
            s = s.apply(next(a for a in s.legal_actions() if isinstance(a, tuple) and a[0] == "place"))
    return s, turns


def test_play_goes_round_the_table_from_the_highest_roll() -> None:
    s, turns = _turns_after_an_opening({})
    assert turns == [3, 0, 1, 2] * 2
    assert s.public_view()["order"] == [3, 0, 1, 2] and s.public_view()["opening_order"] == [3, 2, 1, 0]


def test_roll_order_variant_plays_in_the_order_of_the_rolls() -> None:
    s, turns = _turns_after_an_opening({"roll_order": True})
    assert turns == [3, 2, 1, 0] * 2
    assert s.public_view()["order"] == [3, 2, 1, 0]
    assert "rollorder=1" in s.to_text() and GAME.state_from_text(s.to_text()).position.turn_order == (3, 2, 1, 0)


def test_endless_opening_ties_fall_back_to_seat_order() -> None:
    s = GAME.new_state(None, 2)
    for _ in range(11):
        s = play(s, "roll 3", "roll 3")
    assert s.phase == "colour" and s.position.order == (0, 1)


def test_a_colour_choice_is_refused_outside_the_choice() -> None:
    s = position(roll="3C")
    with pytest.raises(IllegalAction, match="colours were chosen"):
        s.apply(("colour", 2))


def test_position_text_round_trips_and_refuses_junk() -> None:
    s = position(towers={"C3N": "C3N-C3S"}, pieces={"D3S-D3W": 1}, bridges=(), roll="4+", left="2+0")
    text = s.to_text()
    assert "\n" not in text
    assert GAME.state_from_text(text).to_text() == text
    for bad in ("", "jeocinco", text + " x", text.replace("phase=place", "phase=dance"),
                text.replace("players=2", "players=7"), text.replace("spare=00", "spare=30"),
                text.replace("board=", "board=a")):
        with pytest.raises(BadPosition):
            GAME.state_from_text(bad)


def test_a_tower_without_its_five_pieces_is_not_a_position() -> None:
    s = position(towers={"C3N": "C3N-C3S"}, roll="3C")
    text = s.to_text()
    board = text.split("board=")[1].split(" ")[0]
    broken = board_to_text([s.position.pieces[0] & ~(1 << slot("C3N-C3E")), s.position.pieces[1]])
    with pytest.raises(BadPosition, match="five sides"):
        GAME.state_from_text(text.replace(board, broken))


def test_board_text_is_run_length() -> None:
    s = position(pieces={"C3N-C3E": 0, "E5N-E5E": 1}, roll="3C")
    a, b = slot("C3N-C3E"), slot("E5N-E5E")
    assert s.to_text().split("board=")[1].split(" ")[0] == f"{a}a{b - a - 1}b{282 - b}"
    for bad in (f"{a}a{b - a - 1}c{282 - b}", f"{a}a{b - a - 1}b{283 - b}", f"{a}a{b - a - 1}b{281 - b}",
                f"{a}a{b - a - 1}b0{282 - b}", f"{a}a0{b - a - 1}b{282 - b}"):
        with pytest.raises(BadPosition):
            GAME.state_from_text(s.to_text().replace(f"{a}a{b - a - 1}b{282 - b}", bad))


def test_action_texts() -> None:
    s = position(roll="3C")
    assert s.action_from_text("place C3N-C3E") == ("place", slot("C3N-C3E"))
    assert s.action_from_text("C3E-C3N") == ("place", slot("C3N-C3E"))  # either order, bare slot
    assert s.action_from_text("Dispute c3n-c3e") == ("dispute", slot("C3N-C3E"))
    assert s.action_from_text("roll *+") == ("dice", 6, 5)
    assert s.action_from_text("roll 3C") == ("dice", 3, 2)
    assert s.action_from_text("roll *") == ("die", 6)
    assert s.action_from_text("tower C3N C3N-C3S") == ("tower", B.PENT_INDEX["C3N"], slot("C3N-C3S"))
    k = B.BRIDGE_INDEX[frozenset((slot("B3E-B3S"), slot("C3N-C3W")))]
    assert s.action_from_text("bridge C3N-C3W~B3E-B3S") == ("bridge", k)
    assert s.action_to_text(("bridge", k)) == "bridge B3E-B3S~C3N-C3W"
    assert s.action_from_text("done") == ("done",)
    for bad in ("roll 7", "roll 3F", "place Z9", "bridge A1N-A1E~A1N-A1S", "tower C3N", "colour X"):
        with pytest.raises(IllegalAction):
            s.action_from_text(bad)


def test_options_are_validated() -> None:
    assert GAME.new_state().options == {"fast": False, "max_rounds": 100, "max_disputes_per_turn": 4,
                                        "diagonal_bridges": True, "roll_order": False, "own_turn_bridges": False}
    for bad in ({"fast": "yes"}, {"max_rounds": 0}, {"max_disputes_per_turn": -1}, {"diagonal_bridges": 1},
                {"roll_order": "yes"}, {"own_turn_bridges": 1}):
        with pytest.raises(ValueError):
            GAME.new_state(bad)
    for n in (1, 5):
        with pytest.raises(ValueError, match="2 to 4"):
            GAME.new_state(None, n)
    assert GAME.max_game_length() > GAME.max_game_length({"max_rounds": 10})


def test_physical_view_is_presence_only() -> None:
    s = position(towers={"C3N": "C3N-C3S"}, pieces={"D3S-D3W": 1, "C3E-D3W": 1},
                 bridges=(), roll="3C")
    view = s.physical_view()
    assert len(view) == 283 + 100 + 262
    assert view["slot:C3N-C3E"] == 1 and view["slot:D3S-D3W"] == 1  # pieces of both players read 1
    assert view["slot:C3N-C3S"] == 0  # the tower took that piece's place
    assert view["tower:C3N"] == 1 and sum(v for k, v in view.items() if k.startswith("tower:")) == 1


def test_public_view_is_json_and_names_things() -> None:
    s = position(towers={"C3N": "C3N-C3S"}, pieces={"D3S-D3W": 1}, roll="3C")
    pv = s.public_view()
    json.dumps(pv)
    assert pv["towers"] == {"C3N": {"player": 0, "replaced_slot": "C3N-C3S"}}
    assert pv["slots"]["D3S-D3W"] == 1 and pv["roll"] == "3C" and pv["phase"] == "place"
    assert pv["players"][0]["colour_name"] == "yellow"
    assert s.private_view(0) == {}
    picture = s.render_text()
    assert "C3  N:" in picture and "T" in picture.split("C3  N:")[1].split()[0]


def test_svg_picture() -> None:
    bridge = "B3E-B3S~C3N-C3W"
    s = position(towers={"C3E": "C3E-C3S"}, pieces={"B3E-B3S": 0, "C3N-C3W": 0}, bridges=(bridge,),
                 roll="3C")
    svg = render_svg(s.public_view(), highlight=("A1N-A1E",))
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert len(root.findall(f"{ns}polygon")) == 100
    assert len(root.findall(f"{ns}circle")) == 1  # one tower
    titles = [t.text for t in root.iter(f"{ns}title")]
    assert "bridge from B3E-B3S to C3N-C3W" in titles and "tower C3E" in titles and "C3N-C3W: player 0" in titles
