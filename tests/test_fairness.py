"""Fair dice (``docs/mqtt.md``, "Fair dice"): nobody can predict a chance outcome, and everyone can
check every one afterwards.

The generator (``controller.games.chance``) against an independent reading of the documented
algorithm and by the numbers; records that replay and verify, or are refused; the journal's
secrets; and, end to end, a viewer of every public topic of a Serpientes, a Jeocinco and a
Scriptorium game at the simulated table, who learns nothing before the end and checks everything
after it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import math
import queue
import random
import re
import sqlite3
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from controller.games import CHANCE, State
from controller.games.chance import SCHEME, commitment, draw, draw_index, integer_weights, seed_secret
from controller.games.record import ChanceKey, Match, Record, UnfairRecord, sample_chance, verify
from controller.journal import Journal
from controller.localbroker import Broker
from controller.mqtt import Command
from controller.service import Service
from tests.support.mqttc import Listener
from tests.support.table import Table

SECRET = bytes(range(32))


def ask(service: Service, name: str, args: dict[str, Any] | None = None) -> tuple[bool, object]:
    """A request through the service's loop, as MQTT hands it in: (ok, result) once answered."""
    answer: queue.Queue[tuple[bool, object]] = queue.Queue()
    service.post(Command(name, args or {}, lambda ok, result: answer.put((ok, result))))
    return answer.get(timeout=10)


def reference_index(secret: bytes, node: int, probabilities: list[Fraction]) -> int:
    """docs/mqtt.md's "Fair dice", read independently: whole weights, HMAC blocks, rejection."""
    scale = math.lcm(*(p.denominator for p in probabilities))
    weights = [int(p * scale) for p in probabilities]
    weights = [w // math.gcd(*weights) for w in weights]
    total, k = sum(weights), 0
    while True:
        x = int(hmac.new(secret, f"{node}:{k}".encode("ascii"), hashlib.sha256).hexdigest(), 16)
        if x < 2**256 - 2**256 % total:
            break
        k += 1
    r = x % total
    return next(i for i in range(len(weights)) if sum(weights[: i + 1]) > r)


# -- the generator ----------------------------------------------------------------------------

def test_the_generator_is_the_documented_algorithm() -> None:
    cases = [[Fraction(1, 6)] * 6, [Fraction(1, 36)] * 36, [Fraction(5, 10), Fraction(3, 10), Fraction(2, 10)],
             [Fraction(w, 3 * 2**254 + 1) for w in (2**254, 2**254, 2**254 + 1)]]  # a quarter of the blocks rejected
    for probabilities in cases:
        for node in range(300):
            assert draw_index(SECRET, node, integer_weights(probabilities)) == \
                reference_index(SECRET, node, probabilities), (probabilities[:3], node)


def test_the_documented_example_is_what_the_generator_gives() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "mqtt.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Fair dice"):]
    example = re.search(r"secret `([0-9a-f]{64})`.*?commitment `([0-9a-f]{64})`.*?nodes 0 to 9.*?`([0-9 ]+)`",
                        section, flags=re.S)
    assert example, "the Fair dice section gives a worked example"
    secret = bytes.fromhex(example[1])
    assert commitment(secret) == example[2]
    assert [draw_index(secret, n, [1] * 6) + 1 for n in range(10)] == [int(v) for v in example[3].split()]


def test_float_probabilities_are_read_exactly() -> None:
    assert integer_weights([1 / 36] * 36) == [1] * 36
    assert integer_weights([c / 17 for c in (5, 0, 9, 3)]) == [5, 0, 9, 3]
    assert integer_weights([Fraction(2, 7), Fraction(5, 7)]) == [2, 5]
    assert integer_weights([0.25, 0.75]) == [1, 3]
    for bad in ([0.1000000001, 0.8999999999], [-0.5, 1.5], [0.0, 0.0]):
        with pytest.raises(ValueError):
            integer_weights(bad)


def chi_square(counts: Counter[Any], weights: list[int]) -> float:
    n, total = sum(counts.values()), sum(weights)
    return sum((counts[i] - n * w / total) ** 2 / (n * w / total) for i, w in enumerate(weights))


@pytest.mark.parametrize("weights", [[1] * 6, [1] * 36, [5, 3, 2, 1], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 12]],
                         ids=["die", "two dice", "deck", "skewed"])
def test_draws_are_unbiased_over_the_weights(weights: list[int]) -> None:
    """60,000 nodes of one secret (deterministic): the chi-square statistic stays within the mean of
    its distribution (k - 1 degrees of freedom) plus 6 standard deviations (sqrt(2 (k - 1)))."""
    counts = Counter(draw_index(SECRET, node, weights) for node in range(60_000))
    df = len(weights) - 1
    assert chi_square(counts, weights) < df + 6 * math.sqrt(2 * df), counts


def test_different_secrets_draw_different_dice_and_one_secret_always_the_same() -> None:
    die = [(("die", v), 1 / 6) for v in range(1, 7)]
    first = [draw(SECRET, n, die) for n in range(600)]
    assert first == [draw(SECRET, n, die) for n in range(600)]
    other = [draw(bytes(32), n, die) for n in range(600)]
    same = sum(a == b for a, b in zip(first, other, strict=True))
    assert 60 < same < 140, same  # independent dice agree about 1 time in 6 (100 of 600)
    with pytest.raises(ValueError):
        draw(b"short", 0, die)  # fewer than 128 bits


def test_explicit_seeds_stand_for_a_predictable_secret_fresh_ones_for_32_random_bytes() -> None:
    assert seed_secret(7) == hashlib.sha256(b"arbitro-seed:7").digest() != seed_secret(8)
    keys, fair = [], None
    for _ in range(2):
        with Table("contigo", seed=-1) as table:
            keys.append(table.service.call(lambda: table.service.session.match.key))
            fair = fair or table.service.call(table.service.public_state)["fair"]
    assert all(len(k.secret) == 32 for k in keys) and keys[0].secret != keys[1].secret
    assert fair == {"scheme": SCHEME, "commitment": keys[0].commitment, "secret": None}
    assert keys[0].commitment == hashlib.sha256(keys[0].secret).hexdigest()


# -- records ----------------------------------------------------------------------------------

def played(game: str, options: dict[str, Any], players: int, *, enter_every: int = 0, seed: int = 3,
           stop: int | None = None) -> Match:
    """A whole game (or its first ``stop`` actions) with random moves; every ``enter_every``-th
    chance outcome entered by hand."""
    match, rng, chance = Match.new(game, options, players, secret=SECRET), random.Random(seed), 0
    while not match.state.is_terminal() and (stop is None or len(match.record.actions) < stop):
        if match.state.current_player == CHANCE:
            chance += 1
            if enter_every and chance % enter_every == 0:
                match.apply(rng.choice(match.state.legal_actions()))  # a physical die's value
                continue
            match.resolve_chance()
        else:
            match.apply(rng.choice(match.state.legal_actions()))
    return match


def test_a_record_replays_exactly_and_verifies_entered_dice_are_the_tables() -> None:
    match = played("jeocinco", {"fast": True, "max_rounds": 8}, 2, enter_every=5)
    record = Record.from_dict(json.loads(json.dumps(match.record.to_dict())))
    assert record == match.record
    checks = verify(record)
    entered = [c for c in checks if c.key is None]
    assert entered and len(entered) < len(checks) and all(c.verified for c in checks if c.key is not None)
    again = Match(Record(record.game, record.options, record.num_players, list(record.keys)))
    for i, text in enumerate(record.actions):  # the secret draws the same dice again
        if again.state.current_player == CHANCE and i in record.drawn:
            assert again.state.action_to_text(again.resolve_chance()) == text
        else:
            again.apply_text(text)
    assert again.state.to_text() == match.state.to_text()


def test_an_undone_roll_rolls_the_same_again() -> None:
    match = Match.new("jeocinco", {}, 2, secret=SECRET)
    rolled = [match.state.action_to_text(match.resolve_chance()) for _ in range(2)]
    match.undo()
    assert match.state.action_to_text(match.resolve_chance()) == rolled[1] and len(match.record.drawn) == 2


def tampered(data: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Record ``data`` with its first drawn outcome that had a choice replaced by another legal one,
    cut after it (what follows might no longer be legal); and that outcome's index."""
    record = Record.from_dict(data)
    match = Match(Record(record.game, record.options, record.num_players, [], record.actions))
    i = next(i for i in sorted(record.drawn) if len(match.history[i].legal_actions()) > 1)
    state = match.history[i]
    changed = json.loads(json.dumps(data))
    changed["actions"] = [*record.actions[:i], next(t for t in map(state.action_to_text, state.legal_actions())
                                                    if t != record.actions[i])]
    for key in changed["fair"]["keys"]:
        key["drawn"] = [j for j in key["drawn"] if j <= i]
    if "table" in changed["fair"]:
        changed["fair"]["table"] = [j for j in changed["fair"]["table"] if j <= i]
    if "times" in changed:  # a record of version 2 (docs/records.md): a time for each action at most
        changed["times"] = changed["times"][:i + 1]
    return changed, i


def test_a_tampered_record_is_refused_by_what_it_gets_wrong() -> None:
    record = played("scriptorium", {"round_limit": 6}, 2).record
    data = record.to_dict()
    changed, i = tampered(data)
    with pytest.raises(UnfairRecord, match=f"action {i + 1} "):
        verify(Record.from_dict(changed))  # an outcome the secret did not give
    changed = json.loads(json.dumps(data))
    changed["fair"]["keys"][0]["secret"] = bytes(32).hex()
    with pytest.raises(UnfairRecord, match="does not match its commitment"):
        verify(Record.from_dict(changed))  # another secret than the one committed to
    sealed = Record.from_dict(record.to_dict(reveal=False))
    assert sealed.keys == [ChanceKey(record.keys[0].commitment)]
    with pytest.raises(UnfairRecord, match="the game is over, and its secret is withheld"):
        verify(sealed)  # a game over reveals its secret
    half = len(record.actions) // 2
    part = Match(Record(record.game, record.options, record.num_players, record.keys, record.actions[:half],
                        {n: k for n, k in record.drawn.items() if n < half})).record
    in_play = verify(Record.from_dict(part.to_dict(reveal=False)))
    assert in_play and not any(c.verified for c in in_play)  # in play: nothing to check yet, nothing refused


# -- the table: commitment, reveal, a fresh secret after an undo of the end -----------------------

def test_the_end_reveals_the_secret_and_an_undo_of_it_goes_on_with_a_fresh_one() -> None:
    with Table("jeocinco", seed=-1) as table:
        s = table.service
        table.play(table.state.legal_actions()[0])  # an opening roll
        before = s.call(s.public_state)["fair"]
        first = s.call(lambda: s.session.match.key)
        assert before == {"scheme": SCHEME, "commitment": first.commitment, "secret": None}
        assert ask(s, "resign", {"player": 1})[0]
        assert s.call(s.public_state)["fair"]["secret"] == first.secret.hex()  # the game is over
        assert ask(s, "undo")[0]
        after = s.call(s.public_state)["fair"]
        assert after["secret"] is None and after["commitment"] != first.commitment
        table.play(table.state.legal_actions()[0])  # drawn with the new secret
        record = s.call(lambda: Record.from_dict(s.session.match.record.to_dict()))
    checks = verify(record)
    assert [c.key for c in checks] == [0, 1] and all(c.verified for c in checks)
    assert record.keys[0] == first and record.keys[1].commitment == after["commitment"]


# -- the journal ------------------------------------------------------------------------------

BEFORE_FAIR_DICE = """
CREATE TABLE games (id INTEGER PRIMARY KEY, board TEXT NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL,
    num_players INTEGER NOT NULL, seed INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0, result TEXT);
CREATE TABLE actions (game INTEGER NOT NULL REFERENCES games(id), n INTEGER NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (game, n));
CREATE TABLE answers (n INTEGER PRIMARY KEY AUTOINCREMENT, board TEXT NOT NULL, key TEXT NOT NULL,
    answer TEXT NOT NULL);
"""
"""The journal's schema before fair dice (chance came from ``random.Random(f"{seed}:{n}")``)."""


def test_a_journal_from_before_fair_dice_opens_and_its_game_goes_on_with_a_fresh_secret(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    seed, match, rng, nodes = 12345, Match.new("jeocinco", {}, 2), random.Random(2), 0
    while len(match.record.actions) < 12:  # played by the old service: its chance from the seed
        if match.state.current_player == CHANCE:
            match.apply(sample_chance(match.state, random.Random(f"{seed}:{nodes}")))
            nodes += 1
        else:
            match.apply(rng.choice(match.state.legal_actions()))
    options = json.dumps(match.record.options, sort_keys=True)
    with sqlite3.connect(path) as db:
        db.executescript(BEFORE_FAIR_DICE)
        db.execute("INSERT INTO games (board, game, options, num_players, seed, finished, result) VALUES "
                   "('t-jeocinco', 'jeocinco', ?, 2, 99, 1, '{\"winners\": [0]}')", (options,))
        db.execute("INSERT INTO games (board, game, options, num_players, seed) VALUES ('t-jeocinco', 'jeocinco', "
                   "?, 2, ?)", (options, seed))
        db.executemany("INSERT INTO actions (game, n, text) VALUES (2, ?, ?)", enumerate(match.record.actions))
    db.close()
    with Table("jeocinco", seed=-1, journal=str(path)) as table:
        s = table.service
        assert table.state.to_text() == match.state.to_text()  # resumed where it was
        key = s.call(lambda: s.session.match.key)
        assert len(key.secret) == 32 and s.call(s.public_state)["fair"]["commitment"] == key.commitment
        while table.state.current_player != CHANCE:
            table.play(random.Random(1).choice(table.state.legal_actions()))
        table.play(table.state.legal_actions()[0])  # drawn from the new secret
        assert ask(s, "new_game")[0]  # the game replaced: its record reveals
    journal = Journal(path)
    old, resumed = journal.record(1), journal.record(2)
    journal.close()
    assert old.keys == [] and old.actions == []
    assert resumed.keys == [key] and resumed.actions[:12] == match.record.actions
    checks = verify(resumed)
    assert [c.verified for c in checks if c.action < 12] == [False] * nodes  # the old dice: not checkable
    assert any(c.verified for c in checks if c.action >= 12)
    exported = subprocess.run([sys.executable, "-m", "controller.cli", "journal", str(path), "--export", "2"],
                              capture_output=True, text=True, check=True).stdout
    assert json.loads(exported)["fair"]["keys"][0]["secret"] == key.secret.hex()
    (tmp_path / "old.json").write_text(json.dumps({**old.to_dict(), "actions": match.record.actions}))
    done = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(tmp_path / "old.json")],
                          capture_output=True, text=True)
    assert done.returncode == 0 and f"before fair dice; its {nodes} chance outcomes cannot be checked" in done.stdout


def test_an_exported_game_in_play_keeps_its_secret_and_replay_says_what_it_checked(tmp_path: Path) -> None:
    path = str(tmp_path / "journal.sqlite")
    with Table("jeocinco", options={"fast": True, "max_rounds": 8}, seed=-1, journal=path) as table:
        rng = random.Random(6)
        for _ in range(6):
            table.play(rng.choice(table.state.legal_actions()))
        secret = table.service.call(lambda: table.service.session.match.record.keys[-1].secret)
        in_play = subprocess.run([sys.executable, "-m", "controller.cli", "journal", path, "--export", "1"],
                                 capture_output=True, text=True, check=True).stdout
        while not table.state.is_terminal():
            table.play(rng.choice(table.state.legal_actions()))
        table.idle()
    assert secret.hex() not in in_play and json.loads(in_play)["fair"]["keys"][0]["secret"] is None
    (tmp_path / "in-play.json").write_text(in_play)
    done = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(tmp_path / "in-play.json")],
                          capture_output=True, text=True)
    assert done.returncode == 0 and "not revealed yet" in done.stdout, done.stdout + done.stderr
    finished = subprocess.run([sys.executable, "-m", "controller.cli", "journal", path, "--export", "1"],
                              capture_output=True, text=True, check=True).stdout
    assert json.loads(finished)["fair"]["keys"][0]["secret"] == secret.hex()
    (tmp_path / "game.json").write_text(finished)
    done = subprocess.run([sys.executable, "-m", "controller.cli", "replay", "-v", str(tmp_path / "game.json")],
                          capture_output=True, text=True)
    assert done.returncode == 0 and "each the one it gives" in done.stdout, done.stdout + done.stderr
    assert "chance node 0, outcome " in done.stdout and "not revealed" not in done.stdout
    record, i = tampered(json.loads(finished))
    (tmp_path / "bad.json").write_text(json.dumps(record))
    done = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(tmp_path / "bad.json")],
                          capture_output=True, text=True)
    assert done.returncode == 1 and f"unfair chance: action {i + 1} " in done.stderr, done.stderr


# -- end to end: a viewer of every public topic ------------------------------------------------

GAMES = [("serpientes", {"tokens": 5, "max_rounds": 12}, 3, None),
         ("jeocinco", {"fast": True, "max_rounds": 8}, 2, None),
         ("scriptorium", {}, 2, 150)]  # Scriptorium: player 0 resigns after 150 actions
SMALL_SEEDS = range(4096)
PUBLIC = ("status", "state", "events")


@dataclass(frozen=True)
class Node:
    """One chance outcome of a record, with what an attacker is handed of its chance node."""

    n: int  # the chance node's index
    state: State
    text: str  # the outcome, as the record holds it
    floats: tuple[float, ...]  # the outcomes' probabilities, as the engine gives them
    weights: tuple[int, ...]  # ... as whole weights
    public: tuple[str, ...]  # each outcome's public text

    @property
    def texts(self) -> list[str]:
        return [self.state.action_to_text(a) for a, _ in self.state.chance_outcomes()]


def chance_nodes(record: Record) -> list[Node]:
    """The chance outcomes the secrets of ``record`` drew, in order."""
    match, out = Match(Record(record.game, record.options, record.num_players, [], record.actions)), []
    for i in sorted(record.drawn):
        state = match.history[i]
        outcomes = state.chance_outcomes()
        out.append(Node(match._chance_nodes[i], state, record.actions[i], tuple(p for _, p in outcomes),
                        tuple(integer_weights([p for _, p in outcomes])),
                        tuple(state.public_action_text(a) for a, _ in outcomes)))
    return out


SEED_SECRETS = [seed_secret(seed) for seed in SMALL_SEEDS]
CANDIDATES = [(name, seed) for name in ("random.Random", "seed_secret") for seed in SMALL_SEEDS]
"""The old attack's guesses: the generator before fair dice (``random.Random(f"{seed}:{n}")``, as
``sample_chance`` drew with it), and explicit seeds' secrets."""


def candidate_index(candidate: tuple[str, int], node: Node) -> int:
    """The outcome (its index) a candidate seed gives ``node``."""
    name, seed = candidate
    if name == "random.Random":
        return random.Random(f"{seed}:{node.n}").choices(range(len(node.floats)), weights=node.floats, k=1)[0]
    return draw_index(SEED_SECRETS[seed], node.n, node.weights)


def old_attack(nodes: list[Node], observed: list[str]) -> list[tuple[str, int]]:
    """The candidates whose dice give every public outcome observed. Generous: the attacker is handed
    each chance node's outcomes (Serpientes' deck is no public knowledge) and need only match
    their public texts."""
    agreeing = CANDIDATES
    for node, seen in zip(nodes, observed, strict=True):
        agreeing = [c for c in agreeing if node.public[candidate_index(c, node)] == seen]
    return agreeing


def test_the_old_attack_finds_a_small_seed_when_there_is_one() -> None:
    """The attack below works: it finds the seed of a game whose dice a small seed did draw."""
    for name in ("random.Random", "seed_secret"):
        match, rng, n = Match.new("jeocinco", {}, 2, 777), random.Random(1), 0
        while len(match.record.drawn) < 8:
            if match.state.current_player != CHANCE:
                match.apply(rng.choice(match.state.legal_actions()))
                continue
            if name == "random.Random":  # the generator before fair dice
                match.apply(sample_chance(match.state, random.Random(f"777:{n}")))
                match.record.drawn[len(match.record.actions) - 1] = 0
            else:
                match.resolve_chance()
            n += 1
        nodes = chance_nodes(match.record)
        assert old_attack(nodes, [node.public[node.texts.index(node.text)] for node in nodes]) == [(name, 777)]


def predictions(nodes: list[Node], observed: list[str]) -> list[tuple[str, str]]:
    """What two predictors of public information guess for each chance node before it is seen: the
    outcome of the first candidate seed agreeing with every outcome so far (else the likeliest),
    and the last outcome seen at a node with the same outcomes (else the likeliest)."""
    guesses, agreeing, last = [], CANDIDATES, dict[tuple[str, ...], str]()
    for node, seen in zip(nodes, observed, strict=True):
        texts = node.texts
        likeliest = texts[node.weights.index(max(node.weights))]
        by_seed = texts[candidate_index(agreeing[0], node)] if agreeing else likeliest
        kind = tuple(sorted(texts))
        guesses.append((by_seed, last.get(kind, likeliest)))
        agreeing = [c for c in agreeing if node.public[candidate_index(c, node)] == seen]
        if seen in texts:  # a hidden draw's public text names no card
            last[kind] = seen
    return guesses


@pytest.mark.parametrize("game,options,players,resign_at", GAMES, ids=[g[0] for g in GAMES])
def test_a_viewer_of_every_public_topic_can_predict_nothing_and_check_everything(
        tmp_path: Path, broker: Broker, game: str, options: dict[str, Any], players: int,
        resign_at: int | None) -> None:
    base, path = f"arbitro/t-{game}", str(tmp_path / "journal.sqlite")
    viewer = Listener(broker.port, [f"{base}/#", "homeassistant/#"])
    rng = random.Random(11)
    try:
        with Table(game, options=options, players=players, seed=-1, mqtt_port=broker.port, journal=path) as table:
            s = table.service
            key = s.call(lambda: s.session.match.key)
            while not table.state.is_terminal():
                if resign_at is not None and table.moves >= resign_at:
                    assert viewer.request(base, "resign", {"player": 0})["ok"]
                    break
                table.play(rng.choice(table.state.legal_actions()))
            table.idle()
            viewer.fence(base)
            game_id = s.call(lambda: s.kept.game_id if s.kept is not None else None)
    finally:
        viewer.close()
    exported = subprocess.run([sys.executable, "-m", "controller.cli", "journal", path, "--export", str(game_id)],
                              capture_output=True, text=True, check=True).stdout
    record = Record.from_dict(json.loads(exported))

    # While the game ran: no topic held the secret or anything made from it but the commitment.
    messages = [(t, p.decode()) for t, p, *_ in viewer.messages if "/request/" not in t]
    end = next(i for i, (t, p) in enumerate(messages)  # the game_over event, or the final state after a resignation
               if (t == f"{base}/state" and json.loads(p)["over"]) or (t.endswith("/events") and '"game_over"' in p))
    secret_forms = [key.secret.hex(), key.secret.hex().upper(), base64.b64encode(key.secret).decode(),
                    base64.urlsafe_b64encode(key.secret).decode().rstrip("=")]
    blocks = [hmac.new(key.secret, f"{n}:0".encode(), hashlib.sha256).hexdigest() for n in range(len(record.actions))]
    for topic, payload in messages[:end]:
        for form in secret_forms + blocks:
            assert form not in payload, f"{topic} tells the secret or an HMAC block: {payload[:200]}"
        if key.commitment in payload:  # the commitment, where the state shows it, and nowhere else
            assert topic == f"{base}/state", topic
            state = json.loads(payload)
            assert state.pop("fair") == {"scheme": SCHEME, "commitment": key.commitment, "secret": None}
            assert key.commitment not in json.dumps(state)
    states = [json.loads(p) for t, p in messages if t == f"{base}/state"]
    assert states[0]["fair"]["commitment"] == key.commitment and states[0]["moves"] == 0  # from the first state

    # What the viewer saw of chance: the public texts of the chance events, in order.
    public = [(t, p) for t, p in messages if t.rsplit("/", 1)[-1] in PUBLIC]
    observed = [e["outcome"] for t, p in public if t.endswith("/events") for e in [json.loads(p)]
                if e["type"] == "chance"]
    nodes = chance_nodes(record)
    assert observed == [node.public[node.texts.index(node.text)] for node in nodes]
    assert len(nodes) >= 18

    # The old attack (small seeds, the old generator and explicit seeds' secrets) finds nothing.
    assert old_attack(nodes, observed) == []

    # The predictors do no better than chance. For each guess its probability p of being right is
    # known (the node's weights); the hits stay below the sum of p plus 5 standard deviations
    # (sqrt of the sum of p(1 - p)): a fair game fails this about 3 times in 10 million.
    guesses = predictions(nodes, observed)
    for which in range(2):
        hits = mean = variance = 0.0
        for node, guess in zip(nodes, (g[which] for g in guesses), strict=True):
            p = node.weights[node.texts.index(guess)] / sum(node.weights)
            hits, mean, variance = hits + (guess == node.text), mean + p, variance + p * (1 - p)
        assert hits <= mean + 5 * math.sqrt(variance) + 1e-9, (which, hits, mean, variance)

    # Once the game is over the state reveals the secret; it is the one committed to, and it gives
    # every chance outcome of the record (and of what the viewer saw).
    revealed = states[-1]["fair"]
    assert states[-1]["over"] and revealed["commitment"] == key.commitment
    assert bytes.fromhex(revealed["secret"]) == key.secret and commitment(key.secret) == key.commitment
    if resign_at is None:
        over = [json.loads(p) for t, p in public if t.endswith("/events") and json.loads(p)["type"] == "game_over"]
        assert [e["fair"] for e in over] == [revealed]
    assert record.keys == [ChanceKey(revealed["commitment"], bytes.fromhex(revealed["secret"]))]
    checks = verify(record)
    assert len(checks) == len(nodes) and all(c.verified for c in checks)
    for node in nodes:
        assert node.texts[draw_index(bytes.fromhex(revealed["secret"]), node.n, node.weights)] == node.text
