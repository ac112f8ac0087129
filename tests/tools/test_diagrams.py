"""The build guide's diagrams are generated from the layouts and committed: they must be up to date."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from controller.tools.diagrams import GAMES, OUT_DIR, plan, svg
from hardware.layout import load_layout


@pytest.mark.parametrize("game", GAMES)
def test_committed_svg_is_up_to_date(game: str) -> None:
    path = OUT_DIR / f"{game}-wiring.svg"
    assert path.read_text() == svg(load_layout(game)), "run: .venv/bin/python -m controller.tools.diagrams"
    ET.fromstring(path.read_text())  # well-formed


def test_parts_and_power_follow_the_layouts() -> None:
    jeocinco, contigo = plan(load_layout("jeocinco")), plan(load_layout("contigo"))
    assert (jeocinco.presence, jeocinco.shift_registers, jeocinco.leds) == (645, 81, 649)
    assert jeocinco.led_amps == pytest.approx(649 * 0.06 * 0.3, abs=0.01) and jeocinco.injections == 7
    assert (contigo.analog, contigo.multiplexers, contigo.shift_registers) == (64, 4, 0)
