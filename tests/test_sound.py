"""The buzzer's cues: which cue each situation at the table sounds (a pure function of what was
told), heard on a real gpiozero ``TonalBuzzer`` over the mock pin factory's PWM pins, and at a whole
simulated table (the real firmware on a pty, MQTT on a real Mosquitto)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone

from controller.app import make_sound
from controller.config import Config, ConfigError, check_pins
from controller.localbroker import Broker
from controller.sound import TUNES, Cue, TableSound, cues
from hardware.buzzer import MID_TONE, OCTAVES, WAITING, Buzzer, Tune
from hardware.layout import load_layout
from tests.support.mqttc import Listener
from tests.support.table import Table
from tests.support.waiting import wait_until

PIN = 12


class RecordingPWMPin(MockPWMPin):  # type: ignore[misc]  # gpiozero has no type information
    """gpiozero's mock PWM pin, also keeping every frequency it was set to (None: silent)."""

    def __init__(self, factory: MockFactory, info: object) -> None:
        super().__init__(factory, info)
        self.tones: list[float | None] = []

    def _set_frequency(self, value: float | None) -> None:
        super()._set_frequency(value)
        self.tones.append(value)


@pytest.fixture
def pins() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=RecordingPWMPin)
    yield factory
    factory.reset()



def heard(tune: Tune) -> list[float | None]:
    """The frequencies a tune sets on the pin: each note's (None for a rest), then silence."""
    return [None if note is None else Tone(note).frequency for note, _ in tune] + [None]


def events(*kinds: str) -> list[dict[str, object]]:
    return [{"type": kind} for kind in kinds]


SITUATIONS = [
    # what was told, who last had the turn, whose turn it is now → the cues
    ("the turn passes to the next player", events("action"), 0, 1, [Cue.TURN]),
    ("the same player goes on", events("action"), 0, 0, []),
    ("a die to roll: nobody's turn", events("action"), 0, None, []),
    ("the roll gives the turn to the next player", events("chance"), 0, 1, [Cue.TURN]),
    ("a roll within the same player's turn", events("chance"), 1, 1, []),
    ("a new game, the same first player", events("new_game"), 0, 0, [Cue.TURN]),
    ("a violation", events("violation"), 0, 0, [Cue.VIOLATION]),
    ("a dispute roll", events("action", "dispute"), 0, None, [Cue.DISPUTE]),
    ("a sync, then the next player", events("action", "sync"), 0, 1, [Cue.SYNC, Cue.TURN]),
    ("the rings aligned after a sync: one sync cue", events("action", "sync", "aligned"), 0, None, [Cue.SYNC]),
    ("a computer's move to carry out", events("expected"), 1, 1, [Cue.EXPECTED]),
    ("the turn passes to a computer: its move to carry out", events("action", "expected"), 0, 1, [Cue.EXPECTED]),
    ("the game is won", events("action", "game_over"), 0, None, [Cue.GAME_OVER]),
    ("a resignation ends the game", events("resign"), 0, None, [Cue.GAME_OVER]),
    ("nothing to hear", events("link", "resolved", "takeback", "setup"), 0, 0, []),
]


@pytest.mark.parametrize(("told", "last", "turn", "expected"), [s[1:] for s in SITUATIONS],
                         ids=[s[0] for s in SITUATIONS])
def test_each_situation_has_its_cue(told: list[dict[str, object]], last: int | None, turn: int | None,
                                    expected: list[Cue]) -> None:
    assert cues(told, last, turn) == expected


def test_every_cue_is_short_distinct_and_in_the_buzzers_range() -> None:
    lowest, highest = Tone(MID_TONE).frequency / 2 ** OCTAVES, Tone(MID_TONE).frequency * 2 ** OCTAVES
    assert set(TUNES) == set(Cue)
    assert len({tuple(heard(t)) for t in TUNES.values()}) == len(TUNES), "two cues sound alike"
    for cue, tune in TUNES.items():
        assert sum(seconds for _, seconds in tune) < 1.0, f"{cue} is too long for a cue"
        assert all(lowest <= Tone(n).frequency <= highest for n, _ in tune if n is not None), cue


@pytest.mark.parametrize("cue", list(Cue))
def test_the_buzzer_plays_each_cue_on_its_pwm_pin(pins: MockFactory, cue: Cue) -> None:
    buzzer = Buzzer(PIN, pin_factory=pins)
    pin = pins.pin(PIN)
    pin.tones.clear()
    pin.clear_states()
    try:
        buzzer.play(cue, TUNES[cue])
        wait_until(lambda: len(pin.tones) == len(heard(TUNES[cue])), f"{cue} to be played")
        assert pin.tones == heard(TUNES[cue])
        assert list(buzzer.played) == [cue]
        assert {s.state for s in pin.states} == {0.0, 0.5}, "the buzzer sounds at half duty and ends silent"
        assert pin.states[-1].state == 0.0
    finally:
        buzzer.close()


def test_a_burst_of_cues_keeps_the_newest_waiting(pins: MockFactory) -> None:
    buzzer = Buzzer(PIN, pin_factory=pins)
    try:
        buzzer.play("long", (("A5", 2.0),))
        wait_until(lambda: list(buzzer.played) == ["long"], "the first tune to start")
        burst = [f"cue {n}" for n in range(WAITING + 3)]
        for name in burst:
            buzzer.play(name, (("C6", 0.01),))
        wait_until(lambda: len(buzzer.played) == 1 + WAITING, "the waiting tunes", timeout=5)
        assert list(buzzer.played) == ["long", *burst[-WAITING:]]
    finally:
        buzzer.close()


def test_table_sound_remembers_whose_turn_it_was_across_a_roll(pins: MockFactory) -> None:
    buzzer = Buzzer(PIN, pin_factory=pins)
    sound = TableSound(buzzer)
    try:
        sound.hear(events("chance"), {"turn": 0})  # who starts: player 0
        sound.hear(events("action"), {"turn": None})  # a die to roll within player 0's turn
        sound.hear(events("chance"), {"turn": 0})  # still player 0: no second cue
        sound.hear(events("action", "violation"), {"turn": 1})
        wait_until(lambda: len(buzzer.played) == 3, "three cues")
        assert list(buzzer.played) == [Cue.TURN, Cue.VIOLATION, Cue.TURN]
    finally:
        sound.close()


def test_the_sound_section_is_checked_and_the_buzzer_pin_has_one_user() -> None:
    assert Config.from_dict({}).sound.buzzer is False  # a board without a buzzer wired stays quiet
    for bad, says in (({"voice": "loud"}, "sound.voice"), ({"pin": 28}, "sound.pin"), ({"volume": 3}, "sound.volume")):
        with pytest.raises(ConfigError, match=says):
            Config.from_dict({"sound": bad})
    config = Config.from_dict({"board": {"game": "contigo"}, "sound": {"buzzer": True, "pin": 13}})
    with pytest.raises(ConfigError, match=r"GPIO13 has two users: .*button.* and the buzzer"):
        check_pins(config, load_layout("contigo"))
    check_pins(Config.from_dict({"sound": {"buzzer": True}}), load_layout("contigo"))  # GPIO12 is free


def test_a_simulated_table_sounds_the_turn_a_violation_and_the_end(broker: Broker) -> None:
    base = "arbitro/t-contigo"
    answers = Listener(broker.port, [f"{base}/response/#"])
    with Table("contigo", seed=1, mqtt_port=broker.port, sound={"buzzer": True, "pin": PIN}) as table:
        sound = table.service.sound
        assert isinstance(sound, TableSound) and sound.buzzer is not None
        played = sound.buzzer.played
        assert list(played) == [], "nobody's turn yet: who starts is still to be drawn"
        table.hands.press("roll")  # the hidden bead: who starts
        wait_until(lambda: list(played) == [Cue.TURN], "the first player's cue")
        first = table.state.current_player
        while (state := table.state).current_player == first:  # a pawn move, then a bead move
            table.play(state.legal_actions()[0])
        wait_until(lambda: list(played) == [Cue.TURN, Cue.TURN], "the next player's cue")
        empty = next(c for c, v in table.state.physical_view().items() if c.startswith("sq:") and not v)
        table.hands.set_channels({empty: 1})  # a pawn from nowhere
        wait_until(lambda: list(played) == [Cue.TURN, Cue.TURN, Cue.VIOLATION], "the violation's cue")
        table.hands.set_channels({empty: 0})
        table.wait(lambda s: s.verdict.kind == "in_sync", "the board put right")
        assert answers.request(base, "resign", {"player": 0})["ok"]
        wait_until(lambda: list(played) == [Cue.TURN, Cue.TURN, Cue.VIOLATION, Cue.GAME_OVER], "the end's cue")
    answers.close()


def test_the_service_gets_the_sound_its_configuration_asks_for() -> None:
    assert make_sound(Config.from_dict({})) is None  # both off: nothing is made, no thread runs
    sound = make_sound(Config.from_dict({"inputs": {"pin_factory": "mock"}, "sound": {"buzzer": True, "voice": "on"}}))
    try:
        assert sound is not None and sound.buzzer is not None and sound.voice is not None
        assert sound.voice.language == "es"  # the players are Spanish unless the board says otherwise
        assert isinstance(sound.buzzer.device.pwm_device.pin, MockPWMPin)
    finally:
        assert sound is not None
        sound.close()
