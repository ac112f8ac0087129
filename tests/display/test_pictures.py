"""The display draws any game one way: the game's own picture, then one ring overlay (issue 20.5)."""

from __future__ import annotations

import ast
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import controller.display
from controller.display.model import BoardModel
from controller.display.render import board_svg
from controller.games import game_names, get_game, registry
from controller.games.record import Match, Record
from controller.i18n import People, say, saying

DISPLAY = Path(controller.display.__file__).parent
GAME_API = {"controller.games", "controller.games.base", "controller.games.registry"}


def test_no_display_module_names_a_game_or_reaches_into_an_engine() -> None:
    modules = sorted(DISPLAY.rglob("*.py"))
    assert len(modules) >= 4
    named = re.compile("|".join(game_names()), re.IGNORECASE)
    for module in modules:
        source = module.read_text()
        assert not named.search(source), f"{module.name} names a game: {named.search(source)}"
        for node in ast.walk(ast.parse(source)):
            imported = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            inside = [m for m in imported if m.startswith("controller.games") and m not in GAME_API]
            assert not inside, f"{module.name} imports {inside}: only the game API ({sorted(GAME_API)})"


def test_no_page_or_script_of_the_display_names_a_game() -> None:
    """What the pages say about a game (its dice, cards, clock) comes from the game's notes."""
    static = sorted([*(DISPLAY / "static").glob("*.html"), *(DISPLAY / "static").glob("*.js")])  # not the catalogue
    assert {p.suffix for p in static} >= {".html", ".js"}
    named = re.compile("|".join(game_names()), re.IGNORECASE)
    for page in static:
        found = named.search(page.read_text())
        assert not found, f"{page.name} names a game: {found}"


@pytest.mark.parametrize("game", game_names())
def test_every_game_says_its_notes_in_spanish_from_the_public_view(game: str) -> None:
    g = get_game(game)
    match = Match(Record.seeded(game, g.options({}), g.players(None), 3))
    said: set[str] = set()
    for _ in range(400):
        if match.state.is_terminal():
            break
        for note in g.notes(match.state.public_view()):
            spanish, english = say(note, "es"), say(note, "en")
            assert spanish != english and "{" not in spanish, f"{note.code}: {spanish!r}"
            assert not re.search(r"player \d", spanish), f"{note.code} names a seat by its index: {spanish!r}"
            said.add(note.code)
        if match.state.current_player < 0:
            match.resolve_chance()
        else:
            match.apply(random.Random(len(match.record.actions)).choice(match.state.legal_actions()))
    assert said, f"{game} said nothing beside its picture in a whole game"


def a_state(game: str) -> Match:
    g = get_game(game)
    match = Match(Record.seeded(game, g.options({}), g.players(None), 5))
    while match.state.current_player < 0:
        match.resolve_chance()
    return match


@pytest.mark.parametrize("game", game_names())
def test_the_display_shows_the_targets_as_the_games_picture_does(game: str) -> None:
    match = a_state(game)
    view = match.state.public_view()
    channels = [c.name for c in get_game(game).channels(match.record.options, match.record.num_players)]
    kinds: dict[str, list[str]] = {}
    for name in channels:
        kinds.setdefault(name.split(":")[0], []).append(name)
    targets = [name for names in kinds.values() for name in names[:2]]  # every kind: Jeocinco's towers too
    players = match.state.player_info()
    drawn = board_svg({"game": game, "board_view": view, "targets": targets, "players": players, "language": "es"})
    said = saying("es", People.of(players, "es"))  # the board's language, players named by colour, else seat
    assert drawn == get_game(game).picture(view, targets, said) != get_game(game).picture(view, (), said)


@pytest.mark.parametrize("game", game_names())
def test_every_channel_has_its_place_inside_the_picture(game: str) -> None:
    g = get_game(game)
    for options, players in g.configurations():
        svg = g.picture(g.new_state(options, players).public_view())
        left, top, width, height = map(float, ET.fromstring(svg).attrib["viewBox"].split())
        for channel in g.channels(options, players):
            xy = g.channel_xy(channel.name)
            assert xy is not None, channel.name
            assert left <= xy[0] <= left + width and top <= xy[1] <= top + height, (channel.name, xy)


@pytest.mark.parametrize("game", game_names())
def test_names_that_are_no_channel_in_a_mark_are_passed_over(game: str) -> None:
    junk = ["pt:a:b", "edge:h:x:1", "sq:", "pos:inner:x", "slot:", "tower:zz", "enc:", "nothing", ""]
    match = a_state(game)
    picture = board_svg({"game": game, "board_view": match.state.public_view(), "targets": junk,
                         "violation": {"message": "x", "channels": junk}, "setup": {"message": "y", "channels": junk}})
    assert picture.startswith("<svg") and "cannot draw" not in picture
    assert 'class="mark' not in picture


def test_a_game_the_display_has_never_heard_of_is_drawn_all_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new game needs nothing in the display: registered, it is drawn by its picture, its setup
    and violation ringed where its picture places the channels, its players in their colours."""
    monkeypatch.setitem(registry.ENGINES, "toy", "tests.support.toy")
    toy = get_game("toy")
    state = toy.new_state().apply("first 0").apply("b2")
    message = {"game": "toy", "board_view": state.public_view(), "players": state.player_info(),
               "targets": ["sq:a1"], "setup": {"message": "set", "channels": ["sq:c3"]},
               "violation": {"message": "wrong", "channels": ["sq:a3", "sq:nowhere"]}}
    picture = board_svg(message)
    assert picture.startswith(toy.picture(state.public_view(), ["sq:a1"]).removesuffix("</svg>"))
    for kind, channel, colour in (("target", "sq:a1", "#000000"), ("setup", "sq:c3", "#ffffff"),
                                  ("violation", "sq:a3", "#e00000")):
        x, y = toy.channel_xy(channel) or (0.0, 0.0)
        assert (f'<circle class="mark {kind}" cx="{x:.1f}" cy="{y:.1f}" r="11" fill="none" stroke="{colour}"'
                in picture), kind
    assert picture.count('class="mark') == 3
    board = BoardModel("t")
    board.on_state(message)
    assert board.picture() == (picture, [p["colour"] for p in state.player_info()])


PHONE_PX = 390
"""A phone's width in CSS pixels: the seat page draws the picture that wide (docs/display.md)."""


@pytest.mark.parametrize("game", game_names())
def test_every_word_of_a_picture_is_11_px_or_more_on_a_phone_390_px_wide(game: str) -> None:
    g = get_game(game)
    for options, players in g.configurations():
        match = Match(Record.seeded(game, g.options(options), players, 7))
        for _ in range(40):  # a few moves in: captions with dice, towers, scores
            if match.state.is_terminal():
                break
            if match.state.current_player < 0:
                match.resolve_chance()
            else:
                match.apply(random.Random(len(match.record.actions)).choice(match.state.legal_actions()))
        svg = ET.fromstring(g.picture(match.state.public_view(), (), saying("es")))
        scale = PHONE_PX / float(svg.attrib["viewBox"].split()[2])
        sizes = {float(node.attrib["font-size"]) for node in svg.iter() if "font-size" in node.attrib}
        assert sizes and min(sizes) * scale >= 11, (options, players, min(sizes) * scale)


@pytest.mark.parametrize("game,faced,plain", [
    ("jeocinco", ["colour N", "colour E", "colour S", "colour W"], ["place A1N-A1E", "colour X", "roll 3"]),
    ("serpientes", ["add straight", "add left", "add right", "add north", "add west"], ["add", "keep", "step left"]),
    ("contigo", [], ["beads n-a>n-c 2", "a1-a3"]),
    ("scriptorium", [], ["turn inner 1"]),
])
def test_choices_with_no_place_on_the_board_are_drawn_as_what_they_are(game: str, faced: list[str],
                                                                      plain: list[str]) -> None:
    g = get_game(game)
    faces = [g.action_face(text) for text in faced]
    assert all(face is not None and ET.fromstring(face).tag.endswith("svg") for face in faces), faces
    assert len(set(faces)) == len(faces), "two choices look the same"
    assert [g.action_face(text) for text in plain] == [None] * len(plain)


def test_a_contigo_game_over_is_scored_in_points_and_says_no_more_what_to_move() -> None:
    g = get_game("contigo")
    for options in ({}, {"game": "capture"}):
        match = Match(Record.seeded("contigo", g.options({**options, "turn_limit": 3}), 2, 4))
        while not match.state.is_terminal():
            assert match.state.scores() == [0.0, 0.0] or options
            if match.state.current_player < 0:
                match.resolve_chance()
            else:
                match.apply(random.Random(len(match.record.actions)).choice(match.state.legal_actions()))
        assert g.notes(match.state.public_view()) == []  # not "Move beads" beneath who won
        scores = match.state.scores()
        assert all(s >= 0 for s in scores) and (options or sum(scores) == 1.0), scores
