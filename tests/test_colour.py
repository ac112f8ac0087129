"""Colour for everyone (issue 36): every game's players, and each against the legal-move highlight,
stay told apart under simulated colour-vision deficiency.

The difference is CIEDE2000 (ΔE00) between sRGB colours as seen by full deuteranopia, protanopia and
tritanopia (Machado, Oliveira and Fernandes 2009, severity 1.0, applied to linear sRGB) and by normal
vision; each must be at least :data:`MINIMUM` (why that number: docs/display.md, "Colour for
everyone"). The colour science is colour-science's (CIEDE2000, the Machado matrices, sRGB to Lab).
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Iterable, Sequence

import numpy as np
import pytest

from controller.games import Game, State
from controller.games.base import COLOUR_HEX, HIGHLIGHT_HEX, PALETTE, ColourName, ink, is_colour, tint
from controller.games.jeocinco import board as jeocinco_board
from controller.games.jeocinco.picture import PALE
from controller.games.registry import all_games
from controller.games.scriptorium.board import COLOURS as SCRIPTORIUM_SECTORS

# colour-science warns, on import, that SciPy's parts are missing (none is used here), and that
# Machado's tritanopia is an approximation (it is the one asked for)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import colour

    MACHADO = {name: colour.matrix_cvd_Machado2009(deficiency, 1.0)
               for name, deficiency in (("deuteranopia", "Deuteranomaly"), ("protanopia", "Protanomaly"),
                                        ("tritanopia", "Tritanomaly"))}

MINIMUM = 10.0
"""The smallest ΔE00 allowed between two colours that must be told apart (docs/display.md)."""

VISIONS: dict[str, np.ndarray | None] = {"normal": None, **MACHADO}
"""Each vision: the Machado 2009 matrix on linear sRGB (None: as it is)."""

SRGB = colour.RGB_COLOURSPACES["sRGB"]
CHOSEN: dict[str, Sequence[ColourName]] = {"jeocinco": jeocinco_board.COLOUR_NAMES}
"""A game whose players choose their colour as they play: any of these (so every pair of them)."""


def seen(hex_: str, vision: str) -> np.ndarray:
    """``hex_`` as CIE Lab, seen with ``vision``."""
    rgb = colour.cctf_decoding(np.array([int(hex_[i:i + 2], 16) / 255 for i in (1, 3, 5)]), "sRGB")
    matrix = VISIONS[vision]
    if matrix is not None:
        rgb = np.clip(matrix @ rgb, 0, 1)
    return colour.XYZ_to_Lab(colour.RGB_to_XYZ(rgb, SRGB, apply_cctf_decoding=False))


def difference(a: str, b: str, vision: str) -> float:
    return float(colour.delta_E(seen(a, vision), seen(b, vision), method="CIE 2000"))


def too_close(pairs: Iterable[tuple[str, str]]) -> list[str]:
    """Each pair (named ``name=#hex``) closer than the minimum in some vision, with its ΔE00."""
    close = []
    for a, b in pairs:
        for vision in VISIONS:
            d = difference(a.rpartition("=")[2], b.rpartition("=")[2], vision)
            if d < MINIMUM:
                close.append(f"{a} vs {b}: ΔE00 {d:.1f} ({vision})")
    return close


def named(names: Iterable[ColourName]) -> list[str]:
    return [f"{name}={COLOUR_HEX[name]}" for name in names]


OTHER_OPTIONS: dict[str, dict[str, object]] = {"serpientes": {"two_players": True}}
"""Options a game needs for some player counts (two-player Serpientes)."""


def seats(game: Game, players: int) -> State | None:
    """A new game of ``players``, in the variant that allows them (None: no variant does)."""
    for options in ({}, OTHER_OPTIONS.get(game.name)):
        try:
            return game.new_state(options, players) if options is not None else None
        except ValueError:
            continue
    return None


def player_colours(state: State, game_name: str) -> list[ColourName]:
    """The colours the players of a game may have: each seat's, or any the game lets them choose."""
    colours = [state.player_colour(p) for p in range(state.num_players)]
    if None in colours:
        return list(CHOSEN[game_name])
    return [c for c in colours if c is not None]


CASES = [(game.name, n, state) for game in all_games() for n in range(game.min_players, game.max_players + 1)
         if (state := seats(game, n)) is not None]


@pytest.mark.parametrize(("game", "players", "state"), CASES, ids=[f"{g}-{n}" for g, n, _ in CASES])
def test_every_pair_of_players_and_the_highlight_are_told_apart(game: str, players: int, state: State) -> None:
    colours = named(player_colours(state, game))
    assert len(colours) >= min(players, 2) and len(set(colours)) == len(colours)
    pairs = [*itertools.combinations(colours, 2), *((c, f"highlight={HIGHLIGHT_HEX}") for c in colours)]
    assert too_close(pairs) == []


def test_every_game_and_player_count_is_checked() -> None:
    counts = {(g, n) for g, n, _ in CASES}
    assert {g for g, _ in counts} == {"contigo", "jeocinco", "scriptorium", "serpientes"}
    assert {("serpientes", 2), ("serpientes", 6), ("jeocinco", 2), ("contigo", 4)} <= counts
    assert ("contigo", 3) not in counts  # no variant of Contigo seats three


def test_scriptorium_sectors_are_told_apart() -> None:
    """A pawn moves by the colour of the spaces: all six colours of the board, pairwise."""
    assert len(SCRIPTORIUM_SECTORS) == 6 and all(is_colour(c) for c in SCRIPTORIUM_SECTORS)
    sectors = named(c for c in SCRIPTORIUM_SECTORS if is_colour(c))
    assert too_close(itertools.combinations(sectors, 2)) == []


def test_jeocinco_pentagons_are_told_apart() -> None:
    """"Your colour's pentagon": the four pentagon colours, as the board draws them (paler)."""
    pentagons = [f"{name} pentagon={hex_}" for name, hex_ in zip(jeocinco_board.COLOUR_NAMES, PALE, strict=True)]
    assert too_close(itertools.combinations(pentagons, 2)) == []


def test_the_palette_by_seat_is_told_apart() -> None:
    assert too_close(itertools.combinations(named(PALETTE), 2)) == []


def test_the_check_fails_the_colours_issue_36_found() -> None:
    """The old red and green (about one beige under deuteranopia), the old highlight and orange
    (near in any vision): the test would have failed them."""
    assert difference("#d62728", "#2a9d48", "deuteranopia") < MINIMUM < difference("#d62728", "#2a9d48", "normal")
    assert too_close([("orange=#f77f00", "highlight=#ff8c00")])
    assert difference("#ffffff", "#000000", "tritanopia") == pytest.approx(100, abs=0.5)  # white and black stay


def test_ink_and_tint() -> None:
    assert ink(COLOUR_HEX["yellow"]) == "#000000" and ink(COLOUR_HEX["blue"]) == "#ffffff"
    assert tint("#000000", 0.5) == "#808080" and tint("#d55e00", 0) == "#d55e00"
