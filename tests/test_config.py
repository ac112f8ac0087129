"""The configuration file: every key has a default, every bad value is refused with its name."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from controller.config import Config, ConfigError, check_pins, load_config

SAMPLE = Path(__file__).parent.parent / "deploy" / "arbitro.toml"


def test_the_sample_file_lists_every_key_with_its_default() -> None:
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
    # issue 18.8: names MQTT cannot carry as topics, or that no wildcard subscriber would see
    ("[board]\nid = '" + "b" * 70_000 + "'", "board.id: must be at most 64 characters, not 70000"),
    ('[board]\nid = "a\\u0000b"', "board.id: must not hold the control character U+0000"),
    ('[board]\nid = "a\\nb"', "board.id: must not hold the control character U+000A"),
    ("[board]\nid = 'a+b'", "board.id: must not hold '+'"),
    ('[mqtt]\nbase_topic = "arbitro\\u0000"', "mqtt.base_topic: must not hold the control character U+0000"),
    ("[mqtt]\nbase_topic = 'arbitro/'", "mqtt.base_topic: must not have an empty level"),
    ("[mqtt]\nbase_topic = '$SYS'", "mqtt.base_topic: must not start with '$'"),
    ("[mqtt]\nbase_topic = '" + "t" * 300 + "'", "mqtt.base_topic: must be at most 256 characters"),
    ("[mqtt]\ndiscovery_prefix = 'a+#'", "mqtt.discovery_prefix: must not hold '+'"),
    ("[mqtt]\ndiscovery_prefix = ''", "mqtt.discovery_prefix: must not be empty"),
    ("[sensors]\nheartbeat_timeout = 1e-9", "sensors.heartbeat_timeout: must be from 0.5"),
    # issue 35.8: paths and names with a control character (C0, DEL, C1), each refused naming its key
    ('[journal]\npath = "/var/lib/j\\u0000.sqlite"', "journal.path: must not hold the control character U+0000"),
    ('[journal]\npath = "journal\\n.sqlite"', "journal.path: must not hold the control character U+000A"),
    ('[board]\nlayout = "board\\r.toml"', "board.layout: must not hold the control character U+000D"),
    ('[sensors]\nurl = "/dev/ttyACM0\\u0085"', "sensors.url: must not hold the control character U+0085"),
    ('[mqtt]\nca_certs = "/etc/ca\\u007f.pem"', "mqtt.ca_certs: must not hold the control character U+007F"),
    ('[remote]\ncafile = "\\u001b[31m.crt"', "remote.cafile: must not hold the control character U+001B"),
    ('[board]\nseats = ["table", "bot:easy\\u0000"]', "board.seats: must not hold the control character U+0000"),
    ("[mqtt]\nnonsense = 1", "mqtt.nonsense"),
    ("[nonsense]\nx = 1", "[nonsense]"),
    ("[board\n", "not valid TOML"),
])
def test_bad_values_are_refused_with_their_name(tmp_path: Path, toml: str, words: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError, match=re.escape(words)):
        load_config(path)


def test_the_default_pins_do_not_clash_in_any_reference_layout() -> None:
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
def test_a_pin_with_two_users_is_refused_naming_both(leds: dict[str, Any], layout_change: dict[str, Any],
                                                     words: str) -> None:
    from hardware.layout import Layout, load_layout

    layout = Layout.from_dict({**load_layout("scriptorium").to_dict(), **layout_change})
    config = Config.from_dict({"board": {"game": "scriptorium"}, "leds": {"backend": "neopixel", **leds}})
    with pytest.raises(ConfigError) as refused:
        check_pins(config, layout)
    assert words in str(refused.value)


def test_pins_of_parts_that_are_off_are_free() -> None:
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
def test_arbitro_run_refuses_a_bad_configuration_at_start_up(tmp_path: Path, toml: str, words: str) -> None:
    import subprocess
    import sys

    path = tmp_path / "config.toml"
    path.write_text(toml)
    done = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and words in done.stderr, done.stderr


def test_a_config_file_that_is_not_utf8_is_refused_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes("[board]\nid = 'mesa-peque\u00f1a'\n".encode("latin-1"))
    with pytest.raises(ConfigError, match=r"config.toml is not UTF-8 text \(line 2 holds the byte 0xf1\)"):
        load_config(path)


def test_a_board_id_that_is_not_utf8_is_refused() -> None:
    """A command line in a non-UTF-8 locale hands Python surrogates (``arbitro demo --board-id``)."""
    with pytest.raises(ConfigError, match=r"board\.id: must be UTF-8 text"):
        Config.from_dict({"board": {"id": "mesa\udcf1"}})


@pytest.mark.parametrize(("content", "words"), [
    (None, "mqtt.ca_certs: cannot read {path}: No such file or directory"),
    ("not a certificate\n", "mqtt.ca_certs: {path} holds no CA certificate (PEM)"),
])
def test_a_missing_or_invalid_tls_ca_file_is_refused_naming_the_key(tmp_path: Path, content: str | None,
                                                                     words: str) -> None:
    path = tmp_path / "ca.pem"
    if content is not None:
        path.write_text(content)
    with pytest.raises(ConfigError) as refused:
        Config.from_dict({"mqtt": {"tls": True, "ca_certs": str(path)}})
    assert str(refused.value) == words.format(path=path)


def test_a_client_certificate_that_cannot_be_used_is_refused_naming_the_keys(tmp_path: Path) -> None:
    cert, key = tmp_path / "client.crt", tmp_path / "client.key"
    with pytest.raises(ConfigError, match=re.escape(f"mqtt.certfile: cannot read {cert}: No such file")):
        Config.from_dict({"mqtt": {"tls": True, "certfile": str(cert), "keyfile": str(key)}})
    cert.write_text("not a certificate\n")
    key.write_text("not a key\n")
    with pytest.raises(ConfigError, match=r"mqtt\.certfile / mqtt\.keyfile: .* are not a PEM certificate"):
        Config.from_dict({"mqtt": {"tls": True, "certfile": str(cert), "keyfile": str(key)}})


@pytest.mark.parametrize(("toml", "words"), [
    ("[mqtt]\ntls = true\nca_certs = '/nonexistent/ca.pem'\n", "mqtt.ca_certs: cannot read /nonexistent/ca.pem"),
    ('[board]\nid = "a\\u0000b"\n', "board.id: must not hold the control character U+0000"),
    ('[journal]\npath = "/tmp/j\\u0000.sqlite"\n', "journal.path: must not hold the control character U+0000"),
])
def test_arbitro_run_refuses_bad_mqtt_settings_in_one_line(tmp_path: Path, toml: str, words: str) -> None:
    import subprocess
    import sys

    path = tmp_path / "config.toml"
    path.write_text(toml + "[sensors]\nurl = 'none'\n[inputs]\npin_factory = 'mock'\n")
    done = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
