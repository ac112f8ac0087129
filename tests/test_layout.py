"""Board layouts: shipped for every game, in step with the engines, refused when they do not fit."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from controller.app import build_service
from controller.config import Config
from controller.games import Game, all_games, get_game
from controller.layouts import check_game, reference_layout
from firmware_bridge.sim import SimulatedBoard
from hardware.layout import Layout, LayoutError, load_layout


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_the_shipped_layout_is_the_reference_build_and_fits_every_variant(game: Game) -> None:
    layout = load_layout(game.name)
    assert layout.to_dict() == reference_layout(game).to_dict(), "run: python -m controller.layouts"
    for options, players in game.configurations():
        check_game(layout, game, options, players)
    leds = [i for ls in layout.leds_of.values() for i in ls] + layout.status_leds
    assert len(leds) == len(set(leds)), "two channels share an LED"


def test_a_layout_that_misses_a_channel_or_has_the_wrong_kind_is_refused(tmp_path: Path) -> None:
    data = load_layout("contigo").to_dict()
    del data["channels"]["sq:a1"]
    with pytest.raises(LayoutError, match="no sensor for 1 channels of contigo: \\['sq:a1'\\]"):
        check_game(Layout.from_dict(data), get_game("contigo"))
    data = load_layout("contigo").to_dict()
    data["blocks"] = [["presence", 36], ["count", 28]]
    with pytest.raises(LayoutError, match="sq:a1 is a piece channel but sensor 0 is presence"):
        check_game(Layout.from_dict(data), get_game("contigo"))
    data["channels"]["sq:a1"]["sensor"] = 999
    with pytest.raises(LayoutError, match="outside"):
        Layout.from_dict(data)
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(LayoutError, match="cannot read layout"):
        load_layout(path)
    with pytest.raises(LayoutError, match="the layout is for 'contigo', not 'serpientes'"):
        check_game(load_layout("contigo"), get_game("serpientes"))


def test_a_sensor_board_that_does_not_match_the_layout_stops_the_service() -> None:
    config = Config.from_dict({"board": {"game": "contigo"}, "inputs": {"enabled": False},
                               "mqtt": {"enabled": False}})
    with SimulatedBoard([("presence", 36), ("count", 28)]) as sim:
        service = build_service(config, sensor_url=sim.url)
        service.start()
        try:
            deadline = time.monotonic() + 10
            while service.running() and time.monotonic() < deadline:
                time.sleep(0.01)  # poll interval
            assert not service.running(), "the service kept running with a sensor board that does not fit"
        finally:
            service.stop()
    assert service.fatal == ("the sensor board reports 36 presence and 28 count channels, "
                             "the layout expects 36 piece and 28 count channels")
