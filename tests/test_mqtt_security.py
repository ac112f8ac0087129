"""The sample broker configuration of ``deploy/mosquitto/`` against a real Mosquitto: accounts, the
ACL (the file itself, unchanged), TLS, and the service logging in with its configuration.

Mosquitto drops a denied publish silently and grants a denied subscription, then delivers nothing
on it: so every check here is about what arrives (DESIGN.md section 8).
"""

from __future__ import annotations

import json
import re
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.config import Config
from controller.localbroker import Broker, free_port
from controller.mqtt import MqttBridge
from controller.service import Service
from tests.support.mqttc import Listener
from tests.support.services import bridge_of, mqtt_service

DEPLOY = Path(__file__).resolve().parents[1] / "deploy" / "mosquitto"
BOARD = "board1"  # the board whose players' block the sample ACL holds
BASE = f"arbitro/{BOARD}"
OTHER = "table13"  # a second board, added with the README's recipe
OTHER_BASE = f"arbitro/{OTHER}"
SEATS = [f"{board}-player{n}" for board in (BOARD, OTHER) for n in range(6)]
ACCOUNTS = {name: f"pw-{name}-{uuid.uuid4().hex[:8]}"
            for name in ("arbitro", "operator", "display", "viewer", "homeassistant", *SEATS)}


def acl_with_another_board(d: Path, board: str) -> Path:
    """The sample ACL, unchanged, plus the block of ``board`` made by running the README's recipe."""
    readme = (DEPLOY / "README.md").read_text()
    recipe = re.search(r"^b=table13 .*?\n(block=.*?\nprintf .*?\n)", readme, flags=re.S | re.M)
    assert recipe, "deploy/mosquitto/README.md lost the recipe for another board's players"
    acl = d / "arbitro.acl"
    acl.write_text((DEPLOY / "acl").read_text())
    script = recipe.group(1).replace("/etc/mosquitto/arbitro.acl", str(acl)).replace("sudo tee", "tee")
    subprocess.run(["bash", "-euc", f"b={board}\n{script}"], check=True, capture_output=True)
    return acl


def wait_log(broker: Broker, pattern: str, timeout: float = 10.0, since: int = 0) -> re.Match[str]:
    """The first match of ``pattern`` in the broker's log (from character ``since`` on), once it is there."""
    deadline = time.monotonic() + timeout
    while not (found := re.search(pattern, broker.log_text()[since:])):
        assert time.monotonic() < deadline, f"the broker log never showed {pattern!r}"
        time.sleep(0.02)  # poll interval
    return found


def make_certificates(d: Path) -> dict[str, Path]:
    """A throwaway CA and a server certificate for 127.0.0.1 / localhost (openssl, P-256)."""
    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=d, check=True, capture_output=True)

    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    run("req", "-x509", *ec, "-days", "2", "-subj", "/CN=arbitro test CA", "-keyout", "ca.key", "-out", "ca.crt")
    run("req", *ec, "-subj", "/CN=localhost", "-keyout", "server.key", "-out", "server.csr")
    (d / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
        "-extfile", "san.ext", "-out", "server.crt")
    return {"ca": d / "ca.crt", "cert": d / "server.crt", "key": d / "server.key"}


def render_sample_conf(d: Path, port: int, tls_port: int, certs: dict[str, Path], passwd: Path, acl: Path) -> str:
    """``deploy/mosquitto/arbitro.conf`` with the test's paths and ports; every line it replaces must
    be in the sample (so the test follows the sample, not a copy of it)."""
    text = (DEPLOY / "arbitro.conf").read_text()
    replacements = {
        "password_file /etc/mosquitto/arbitro.passwd": f"password_file {passwd}",
        "acl_file /etc/mosquitto/arbitro.acl": f"acl_file {acl}",
        "persistence_location /var/lib/mosquitto/": f"persistence_location {d}/",
        "listener 1883 127.0.0.1": f"listener {port} 127.0.0.1",
        "listener 8883": f"listener {tls_port} 127.0.0.1",
        "certfile /etc/mosquitto/certs/arbitro.crt": f"certfile {certs['cert']}",
        "keyfile /etc/mosquitto/certs/arbitro.key": f"keyfile {certs['key']}",
        "cafile /etc/mosquitto/certs/ca.crt": f"cafile {certs['ca']}",
    }
    lines = text.splitlines()
    for old, new in replacements.items():
        assert old in lines, f"the sample configuration lost the line {old!r}"
        lines[lines.index(old)] = new
    return "\n".join(["user root", *lines, f"log_dest file {d / 'mosquitto.log'}", "log_type all"]) + "\n"


Secured = tuple[Broker, int, dict[str, Path]]
"""The secured broker: with the plain port, the TLS port, the certificates."""


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Secured]:
    """Mosquitto running the sample configuration: (broker with the plain port, TLS port, certificates)."""
    d = tmp_path_factory.mktemp("secured")
    passwd = d / "arbitro.passwd"
    for i, (user, password) in enumerate(ACCOUNTS.items()):
        subprocess.run(["mosquitto_passwd", *(["-c"] if i == 0 else []), "-b", str(passwd), user, password],
                       check=True, capture_output=True)
    certs = make_certificates(d)
    broker = Broker(d)
    tls_port = free_port()
    acl = acl_with_another_board(d, OTHER)
    assert acl.read_text().startswith((DEPLOY / "acl").read_text())
    broker.conf.write_text(render_sample_conf(d, broker.port, tls_port, certs, passwd, acl))
    broker.start()
    yield broker, tls_port, certs
    broker.stop()


def start_service(port: int, board: str = BOARD, **mqtt: object) -> Service:
    """A Serpientes service (electronic dealing: the hands are dealt at once) logged in as ``arbitro``."""
    service = mqtt_service("serpientes", board, port, seed=3, board={"chance": "auto"},
                           mqtt={"username": "arbitro", "password": ACCOUNTS["arbitro"], **mqtt})
    assert bridge_of(service).flush(5)
    return service


@pytest.fixture(scope="module")
def service(secured: Secured) -> Iterator[Service]:
    s = start_service(secured[0].port)
    yield s
    s.stop()


def keys(value: object) -> set[str]:
    """Every key of every object nested in ``value``."""
    if isinstance(value, dict):
        return set(value).union(*(keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(keys(v) for v in value))
    return set()


def login(port: int, user: str | None, topics: list[str], **kw: Any) -> Listener:
    return Listener(port, topics, username=user, password=ACCOUNTS.get(user or "", "wrong"), **kw)


def test_anonymous_clients_and_wrong_passwords_are_refused(secured: Secured, service: Service) -> None:
    port = secured[0].port
    for client in (Listener(port, [f"{BASE}/#"], wait=False),
                   Listener(port, [f"{BASE}/#"], username="display", password="not-it", wait=False)):
        try:
            deadline = time.monotonic() + 5
            while not client.refused and time.monotonic() < deadline:
                time.sleep(0.02)  # poll interval
            assert client.refused and not client.connected.is_set()
            assert "Not authorized" in str(client.refused[0]) or "Bad user name or password" in str(client.refused[0])
            assert client.messages == []
        finally:
            client.close()


@pytest.fixture(scope="module")
def other_board(secured: Secured) -> Iterator[Listener]:
    """Board table13's state and two hands, retained, written with the service's account."""
    pub = login(secured[0].port, "arbitro", [])
    for topic, payload in ((f"{OTHER_BASE}/state", {"game": "serpientes", "board": OTHER}),
                           (f"{OTHER_BASE}/player/0", {"player": 0, "hand": ["other board, seat 0"]}),
                           (f"{OTHER_BASE}/player/1", {"player": 1, "hand": ["other board, seat 1"]})):
        pub.client.publish(topic, json.dumps(payload), qos=1, retain=True).wait_for_publish(5)
    yield pub
    pub.close()


def fence(pub: Listener, client: Listener, topic: str) -> None:
    """Publish a marker on ``topic`` (readable by ``client``) after whatever ``pub`` sent, and wait for it:
    what ``client`` was going to get from ``pub`` before it has arrived by then (one connection, QoS 1,
    in order)."""
    marker = uuid.uuid4().hex
    pub.client.publish(topic, json.dumps({"fence": marker}), qos=1).wait_for_publish(5)
    client.wait_for(lambda m: m[0] == topic and marker.encode() in m[1])


def test_the_display_server_reads_every_hand_writes_names_only(secured: Secured, service: Service,
                                                               other_board: Listener) -> None:
    broker, port = secured[0], secured[0].port
    display = login(port, "display", ["arbitro/#"], client_id="display-1")
    watcher = login(port, "operator", [f"{BASE}/response/#"], reply_topic=f"{BASE}/response/desk-{uuid.uuid4().hex}")
    names = login(port, "display", [f"{BASE}/names"])
    try:
        assert display.wait_for(lambda m: m[0] == f"{BASE}/status")[1] == b"online"
        assert display.latest_state(BASE)["game"] == "serpientes"
        # Every seat of every board, so that it can hand each seat page its own hand.
        for topic in (f"{BASE}/player/0", f"{BASE}/player/1", f"{OTHER_BASE}/player/0", f"{OTHER_BASE}/player/1"):
            assert "hand" in json.loads(display.wait_for(lambda m, t=topic: m[0] == t)[1])
        # It publishes the retained list of names...
        listed = json.dumps(["Ana", "Bruno", "Chus"]).encode()
        display.client.publish(f"{BASE}/names", listed, qos=1, retain=True).wait_for_publish(5)
        assert names.wait_for(lambda m: m[0] == f"{BASE}/names")[1] == listed
        # ...and nothing else: no request, no state, no status, no hand.
        for topic, payload in ((f"{BASE}/request/new_game", json.dumps({"id": "evil", "game": "contigo"})),
                               (f"{BASE}/state", '{"game": "spoofed"}'), (f"{BASE}/status", "offline"),
                               (f"{BASE}/player/0", '{"hand": ["spoofed"]}')):
            display.client.publish(topic, payload, qos=1, retain=topic != f"{BASE}/request/new_game")
            denied = wait_log(broker, rf"Denied PUBLISH from display-1 \(d0, q1, r[01], (m\d+), '{re.escape(topic)}'")
            assert f"Sending PUBACK to display-1 ({denied.group(1)}, rc135)" in broker.log_text()  # "Not authorized"
        # The request never reached the service: no answer, also once the service has answered a later one.
        watcher.fence(BASE)
        assert watcher.messages == []
        assert service.call(lambda: service.session.game.name) == "serpientes"
        late = login(port, "viewer", [f"{BASE}/player/0", f"{BASE}/state", f"{BASE}/status"])
        try:
            assert late.wait_for(lambda m: m[0] == f"{BASE}/status")[1] == b"online"
            assert late.latest_state(BASE)["game"] == "serpientes"
        finally:
            late.close()
        assert not [t for t, *_ in display.messages if "/response/" in t]
        # A game record to download (docs/records.md): asked on request/record, answered on response/record.
        display.client.publish(f"{BASE}/request/record", json.dumps({"id": "rec-1"}), qos=1).wait_for_publish(5)
        got = json.loads(display.wait_for(lambda m: m[0] == f"{BASE}/response/record")[1])
        assert got["id"] == "rec-1" and got["ok"] and got["result"]["format"] == "arbitro-record"
    finally:
        for client in (display, watcher, names):
            client.close()


def test_a_viewer_reads_the_public_topics_only(secured: Secured, service: Service, other_board: Listener) -> None:
    viewer = login(secured[0].port, "viewer", [f"{BASE}/player/+", f"{OTHER_BASE}/player/+", "arbitro/+/names",
                                               "arbitro/#"])
    try:
        assert viewer.latest_state(BASE)["game"] == "serpientes"
        assert viewer.latest_state(OTHER_BASE)["board"] == OTHER
        other_board.client.publish(f"{BASE}/player/0", b'{"hand": []}', qos=1)  # live, not only retained
        fence(other_board, viewer, f"{BASE}/events")
        assert not [t for t, *_ in viewer.messages if "/player/" in t or "/names" in t]
    finally:
        viewer.close()


def test_the_operator_sends_requests_and_reads_the_answers(secured: Secured, service: Service) -> None:
    op = login(secured[0].port, "operator", [f"{BASE}/#"], reply_topic=f"{BASE}/response/desk-{uuid.uuid4().hex}")
    try:
        answer = op.request(BASE, "state", {"id": "q1"})
        assert answer["ok"] is True and answer["id"] == "q1" and answer["result"]["game"] == "serpientes"
        op.client.publish(f"{BASE}/request/configure", json.dumps({"id": "c1", "allow_takeback": True}), qos=1)
        got = op.wait_for(lambda m: m[0] == f"{BASE}/response/configure")
        assert json.loads(got[1])["id"] == "c1"
        assert not [t for t, *_ in op.messages if "/player/" in t]  # the operator sees no hand either
    finally:
        op.close()


def test_a_player_reads_only_his_own_seat_of_his_own_board(secured: Secured, service: Service,
                                                           other_board: Listener) -> None:
    """Issue 12.6: seat 0 of board1 reads board1's player/0, not table13's seat 0 nor board1's seat 1."""
    broker, port = secured[0], secured[0].port
    others = {  # account -> what it must never receive
        f"{BOARD}-player0": [f"{OTHER_BASE}/player/0", f"{BASE}/player/1", f"{OTHER_BASE}/state"],
        f"{BOARD}-player1": [f"{OTHER_BASE}/player/1", f"{BASE}/player/0"],
        f"{OTHER}-player0": [f"{BASE}/player/0", f"{OTHER_BASE}/player/1", f"{BASE}/state"],
    }
    # The forbidden topics are subscribed first, so their retained hands would come before any other.
    players = {user: login(port, user, [*forbidden, "arbitro/#"], client_id=f"c-{user}")
               for user, forbidden in others.items()}
    try:
        for user, client in players.items():
            board, seat = user.split("-player")
            mine = json.loads(client.wait_for(lambda m, b=board, n=seat: m[0] == f"arbitro/{b}/player/{n}")[1])
            assert mine["player"] == int(seat) and mine["hand"]
            assert client.latest_state(f"arbitro/{board}")["game"] == "serpientes"
        # Live updates of the other hands, then a fence each player can read.
        for topic in (f"{OTHER_BASE}/player/0", f"{OTHER_BASE}/player/1", f"{BASE}/player/1"):
            other_board.client.publish(topic, b'{"hand": ["live"]}', qos=1)
        fence(other_board, players[f"{OTHER}-player0"], f"{OTHER_BASE}/events")
        fence(other_board, players[f"{BOARD}-player0"], f"{BASE}/events")
        fence(other_board, players[f"{BOARD}-player1"], f"{BASE}/events")
        for user, client in players.items():
            seen = {t for t, *_ in client.messages}
            assert not seen & set(others[user]), (user, seen & set(others[user]))
            assert all(t.startswith(f"arbitro/{user.split('-player')[0]}/") for t in seen), seen
        # A player cannot send requests either.
        players[f"{BOARD}-player0"].client.publish(f"{BASE}/request/resign", json.dumps({"player": 1}), qos=1)
        wait_log(broker, rf"Denied PUBLISH from c-{BOARD}-player0 \(d0, q1, r0, m\d+, '{BASE}/request/resign'")
        assert service.call(lambda: service.session.resigned) is None
        # The public state never holds a hand: only its size.
        state = players[f"{BOARD}-player0"].latest_state(BASE)
        assert "hand" not in keys(state) and "hand_size" in keys(state)
    finally:
        for client in players.values():
            client.close()


def test_a_viewer_learns_nothing_while_a_player_chooses_a_secret_action(secured: Secured, service: Service) -> None:
    """Issue 18.6: the ``next`` button cycling through a player's silent actions (a card to program)
    leaves no public trace, not even a count (a count tells which card): only the player's own topic
    changes. A refused ``roll`` press, a public event, fences the viewer's stream before and after."""
    from hardware.inputs import ButtonEvent

    port = secured[0].port
    player, choices, at = service.read(lambda s: (s.state.current_player, s.choices(), s.choice))
    assert player >= 0 and len(choices) > 1, (player, choices)
    cycle = [choices[(at + i) % len(choices)] for i in range(1, len(choices) + 1)]  # ends where it began
    viewer = login(port, "viewer", ["arbitro/#"])
    seat = login(port, f"{BOARD}-player{player}", [f"{BASE}/player/{player}"])

    def refused_roll() -> None:
        since = len(viewer.messages)
        service.post(ButtonEvent("roll"))  # nothing to roll: a public 'refused' event after all before it,
        told = viewer.wait_for(lambda m: m[0] == f"{BASE}/events" and json.loads(m[1])["type"] == "refused",
                               since=since)
        seq = json.loads(told[1])["seq"]  # and the window of recent events that ends with it
        viewer.wait_for(lambda m: m[0] == f"{BASE}/events/recent" and json.loads(m[1])["events"][-1]["seq"] == seq,
                        since=since)

    try:
        seat.wait_for(lambda m: m[0] == f"{BASE}/player/{player}")  # its retained view
        refused_roll()
        start = len(viewer.messages)
        for _ in cycle:
            service.post(ButtonEvent("next"))
        refused_roll()
        seat.wait_for(lambda m: json.loads(m[1])["choice"] == cycle[-1], since=len(cycle))
        told = [(topic, json.loads(p).get("type") if topic.endswith("/events") else None)
                for topic, p, *_ in viewer.messages[start:]]
        assert told == [(f"{BASE}/events", "refused"), (f"{BASE}/events/recent", None)], told
        assert [json.loads(p)["choice"] for _t, p, *_ in seat.messages[1:]] == cycle
    finally:
        viewer.close()
        seat.close()


def test_the_service_logs_in_over_tls_with_its_configuration(secured: Secured) -> None:
    _broker, tls_port, certs = secured
    # A board of its own: with the module's board id it would take over the module's service's MQTT
    # client, and leave that board's status retained "offline" when it stops.
    s = start_service(tls_port, "board-tls", tls=True, ca_certs=str(certs["ca"]))
    try:
        display = login(tls_port, "display", ["arbitro/board-tls/state"], tls_ca=str(certs["ca"]))
        try:
            assert display.latest_state("arbitro/board-tls")["seq"] == s.call(lambda: s.teller.seq)
        finally:
            display.close()
    finally:
        s.stop()


def test_the_service_refuses_a_broker_certificate_it_cannot_verify(secured: Secured, tmp_path: Path) -> None:
    broker, tls_port, _certs = secured
    other = tmp_path / "other"
    other.mkdir()
    config = Config.from_dict({"board": {"id": BOARD, "game": "serpientes"}, "inputs": {"enabled": False},
                               "mqtt": {"port": tls_port, "username": "arbitro", "password": ACCOUNTS["arbitro"],
                                        "tls": True, "ca_certs": str(make_certificates(other)["ca"])}})
    bridge = MqttBridge(config.mqtt, BOARD, lambda e: None)
    since = len(broker.log_text())
    bridge.start()
    try:
        # Another CA signed the broker's certificate: the service ends the handshake with a TLS alert.
        wait_log(broker, r"OpenSSL Error\[0\]: .*alert unknown ca", since=since)
        assert not bridge.connected.is_set()
    finally:
        bridge.stop()


@pytest.mark.parametrize(("mqtt", "message"), [
    ({"certfile": "/x.crt", "tls": True}, "give both"),
    ({"certfile": "/x.crt", "keyfile": "/x.key"}, "only with mqtt.tls"),
    ({"password": "secret"}, "needs mqtt.username"),
    ({"tls": "yes"}, "expected bool"),
])
def test_bad_security_settings_stop_the_service_at_start_up(mqtt: dict[str, Any], message: str) -> None:
    from controller.config import ConfigError

    with pytest.raises(ConfigError, match=message):
        Config.from_dict({"mqtt": mqtt})
