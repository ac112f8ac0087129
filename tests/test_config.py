"""The configuration file: every key has a default, every bad value is refused with its name."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config import Config, ConfigError, load_config

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
    ("[mqtt]\nport = 70000", "mqtt.port"),
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


def test_arbitro_run_refuses_a_bad_configuration_at_start_up(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "config.toml"
    path.write_text("[leds]\nbrightness = 7\n")
    done = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "leds.brightness" in done.stderr
