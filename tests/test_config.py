"""The configuration file: every key has a default, every bad value is refused with its name."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config import Config, ConfigError, check_pins, load_config

SAMPLE = Path(__file__).parent.parent / "deploy" / "arbitro.toml"


def test_the_sample_file_lists_every_key_with_its_default():
    assert load_config(SAMPLE) == Config.from_dict({})
    text = SAMPLE.read_text()
    for section, values in vars(Config()).items():
        assert f"[{section}]" in text
        for key in vars(values):
            assert f"\n{key} = " in text, f"{section}.{key} missing from the sample"


@pytest.mark.parametrize(("toml", "words"), [
    ("[board]\ngame = 'chess'", "board.game"),
    ("[board]\nid = 'a/b'", "board.id"),
    ("[board]\nnum_players = 9", "num_players"),
    ("[board]\noptions = { nonsense = 1 }", "nonsense"),
    ("[board]\nchance = 'sometimes'", "board.chance"),
    ("[sensors]\ndebounce_ms = -1", "sensors.debounce_ms"),
    ("[sensors]\ndebounce_ms = 'fast'", "sensors.debounce_ms"),
    ("[leds]\nbrightness = 2", "leds.brightness"),
    ("[leds]\nbackend = 'laser'", "leds.backend"),
    ("[board]\nseed = 18446744073709551616", "board.seed"),
    ("[sensors]\nheartbeat_timeout = nan", "sensors.heartbeat_timeout"),
    ("[sensors]\nheartbeat_timeout = inf", "sensors.heartbeat_timeout"),
    ("[leds]\nbrightness = nan", "leds.brightness"),
    ("[leds]\npin = 'GPIO18'", "leds.pin"),
    ("[leds]\npin = 'D40'", "leds.pin"),
    ("[inputs]\nhold_time = -1", "inputs.hold_time"),
    ("[mqtt]\nport = 70000", "mqtt.port"),
    ("[mqtt]\nkeepalive = 70000", "mqtt.keepalive"),
    ("[mqtt]\nkeepalive = 0", "mqtt.keepalive"),
    ("[mqtt]\nhost = ''", "mqtt.host"),
    ("[mqtt]\nport = true", "mqtt.port"),
    ("[mqtt]\nbase_topic = 'a/#'", "mqtt.base_topic"),
    ("[mqtt]\nnonsense = 1", "mqtt.nonsense"),
    ("[nonsense]\nx = 1", "[nonsense]"),
    ("[board\n", "not valid TOML"),
])
def test_bad_values_are_refused_with_their_name(tmp_path, toml, words):
    path = tmp_path / "config.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError, match=words.replace("[", r"\[").replace("]", r"\]")):
        load_config(path)


def test_the_default_pins_do_not_clash_in_any_reference_layout():
    from controller.games import game_names
    from hardware.layout import load_layout

    for game in game_names():
        config = Config.from_dict({"board": {"game": game}, "leds": {"backend": "neopixel"}})
        check_pins(config, load_layout(game))  # refuses nothing


@pytest.mark.parametrize(("leds", "layout_change", "words"), [
    ({"pin": "D18"}, {}, "GPIO18 has two users: the LED strip (leds.pin = 'D18', data) and the enc:centre encoder's "
                         "pin b in the scriptorium layout"),
    ({"pin": "SPI"}, {"buttons": {"roll": 8}}, "GPIO8 has two users: the LED strip (leds.pin = 'SPI', SPI0 CE0) and "
                                               "the roll button"),
    ({"pin": "D21"}, {"buttons": {"roll": 17}}, "GPIO17 has two users: the roll button in the"),
    ({"pin": "D21"}, {"buttons": {"roll": 40}}, "the roll button in the scriptorium layout: GPIO40 is not on the"),
])
def test_a_pin_with_two_users_is_refused_naming_both(leds, layout_change, words):
    from hardware.layout import Layout, load_layout

    layout = Layout.from_dict({**load_layout("scriptorium").to_dict(), **layout_change})
    config = Config.from_dict({"board": {"game": "scriptorium"}, "leds": {"backend": "neopixel", **leds}})
    with pytest.raises(ConfigError) as refused:
        check_pins(config, layout)
    assert words in str(refused.value)


def test_pins_of_parts_that_are_off_are_free():
    from hardware.layout import load_layout

    layout = load_layout("scriptorium")
    check_pins(Config.from_dict({"board": {"game": "scriptorium"}, "leds": {"pin": "D18"}}), layout)  # LEDs simulated
    check_pins(Config.from_dict({"board": {"game": "scriptorium"}, "leds": {"backend": "neopixel", "pin": "D18"},
                                 "inputs": {"enabled": False}}), layout)


@pytest.mark.parametrize(("toml", "words"), [
    ("[leds]\nbrightness = 7\n", "leds.brightness"),
    # paho would fail to connect in its own thread and the service would run without MQTT
    ("[mqtt]\nkeepalive = 70000\n[sensors]\nurl = 'sim'\n[inputs]\npin_factory = 'mock'\n", "mqtt.keepalive"),
    ("[board]\ngame = 'scriptorium'\n[leds]\nbackend = 'neopixel'\npin = 'D18'\n[inputs]\npin_factory = 'mock'\n",
     "GPIO18 has two users: the LED strip (leds.pin = 'D18', data) and the enc:centre encoder's pin b"),
])
def test_arbitro_run_refuses_a_bad_configuration_at_start_up(tmp_path, toml, words):
    import subprocess
    import sys

    path = tmp_path / "config.toml"
    path.write_text(toml)
    done = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
