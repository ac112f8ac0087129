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

import pytest

from controller.config import Config
from controller.localbroker import Broker, free_port
from controller.mqtt import MqttBridge
from controller.service import Service
from tests.support.mqttc import Listener
from tests.support.services import mqtt_service

DEPLOY = Path(__file__).resolve().parents[1] / "deploy" / "mosquitto"
BOARD = "hall7"
BASE = f"arbitro/{BOARD}"
ACCOUNTS = {name: f"pw-{name}-{uuid.uuid4().hex[:8]}"
            for name in ("arbitro", "operator", "display", "homeassistant", *(f"player{n}" for n in range(6)))}


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


def render_sample_conf(d: Path, port: int, tls_port: int, certs: dict[str, Path], passwd: Path) -> str:
    """``deploy/mosquitto/arbitro.conf`` with the test's paths and ports; every line it replaces must
    be in the sample (so the test follows the sample, not a copy of it)."""
    text = (DEPLOY / "arbitro.conf").read_text()
    replacements = {
        "password_file /etc/mosquitto/arbitro.passwd": f"password_file {passwd}",
        "acl_file /etc/mosquitto/arbitro.acl": f"acl_file {DEPLOY / 'acl'}",
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


@pytest.fixture(scope="module")
def secured(tmp_path_factory) -> Iterator[tuple[Broker, int, dict[str, Path]]]:
    """Mosquitto running the sample configuration: (broker with the plain port, TLS port, certificates)."""
    d = tmp_path_factory.mktemp("secured")
    passwd = d / "arbitro.passwd"
    for i, (user, password) in enumerate(ACCOUNTS.items()):
        subprocess.run(["mosquitto_passwd", *(["-c"] if i == 0 else []), "-b", str(passwd), user, password],
                       check=True, capture_output=True)
    certs = make_certificates(d)
    broker = Broker(d)
    tls_port = free_port()
    broker.conf.write_text(render_sample_conf(d, broker.port, tls_port, certs, passwd))
    broker.start()
    yield broker, tls_port, certs
    broker.stop()


def start_service(port: int, **mqtt: object) -> Service:
    """A Serpientes service (electronic dealing: the hands are dealt at once) logged in as ``arbitro``."""
    service = mqtt_service("serpientes", BOARD, port, seed=3, board={"chance": "auto"},
                           mqtt={"username": "arbitro", "password": ACCOUNTS["arbitro"], **mqtt})
    assert service.mqtt.flush(5)
    return service


@pytest.fixture(scope="module")
def service(secured) -> Iterator[Service]:
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


def login(port: int, user: str | None, topics: list[str], **kw: object) -> Listener:
    return Listener(port, topics, username=user, password=ACCOUNTS.get(user or "", "wrong"), **kw)


def test_anonymous_clients_and_wrong_passwords_are_refused(secured, service):
    port = secured[0].port
    for client in (Listener(port, [f"{BASE}/#"], wait=False),
                   Listener(port, [f"{BASE}/#"], username="display", password="not-it", wait=False)):
        try:
            deadline = time.monotonic() + 5
            while not client.refused and time.monotonic() < deadline:
                time.sleep(0.02)
            assert client.refused and not client.connected.is_set()
            assert "Not authorized" in str(client.refused[0]) or "Bad user name or password" in str(client.refused[0])
            assert client.messages == []
        finally:
            client.close()


def test_a_display_reads_the_public_topics_but_cannot_request_or_write(secured, service):
    port = secured[0].port
    display = login(port, "display", [f"{BASE}/#", "arbitro/#"], client_id="display-1")
    watcher = login(port, "operator", [f"{BASE}/response/#"])
    try:
        assert display.wait_for(lambda m: m[0] == f"{BASE}/status")[1] == b"online"
        state = display.latest_state(BASE)
        assert state["game"] == "serpientes"
        display.client.publish(f"{BASE}/request/new_game", json.dumps({"id": "evil", "game": "contigo"}), qos=1)
        display.client.publish(f"{BASE}/state", b'{"game": "spoofed"}', qos=1, retain=True)
        display.client.publish(f"{BASE}/status", b"offline", qos=1, retain=True)
        time.sleep(0.5)
        assert watcher.messages == []  # no answer: the request never reached the service
        log = secured[0].log_text()
        denied = re.search(rf"Denied PUBLISH from display-1 \(d0, q1, r0, (m\d+), '{BASE}/request/new_game'", log)
        assert denied, "the broker log does not show the request denied"
        assert f"Sending PUBACK to display-1 ({denied.group(1)}, rc135)" in log  # MQTT 5: "Not authorized"
        assert service.call(lambda: service.game.name) == "serpientes"
        late = login(port, "display", [f"{BASE}/state", f"{BASE}/status"])
        try:
            assert late.wait_for(lambda m: m[0] == f"{BASE}/status")[1] == b"online"
            assert late.latest_state(BASE)["game"] == "serpientes"
        finally:
            late.close()
        # The display sees no private topic and no answers meant for the operator.
        assert not [t for t, *_ in display.messages if "/player/" in t or "/response/" in t]
    finally:
        display.close()
        watcher.close()


def test_the_operator_sends_requests_and_reads_the_answers(secured, service):
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


def test_each_player_reads_only_his_own_hand(secured, service):
    port = secured[0].port
    players = [login(port, f"player{n}", [f"{BASE}/#", f"{BASE}/player/+", f"{BASE}/player/{1 - n}"])
               for n in range(2)]
    try:
        for n, client in enumerate(players):
            mine = json.loads(client.wait_for(lambda m, n=n: m[0] == f"{BASE}/player/{n}")[1])
            assert mine["player"] == n and len(mine["hand"]) == 5
            assert client.latest_state(BASE)["game"] == "serpientes"
        other = login(port, "player0", [f"{BASE}/player/1"])
        other.close()
        time.sleep(0.3)
        for n, client in enumerate(players):
            seen = {t for t, *_ in client.messages if "/player/" in t}
            assert seen == {f"{BASE}/player/{n}"}, seen
            # A player cannot send requests either.
            client.client.publish(f"{BASE}/request/resign", json.dumps({"player": 1 - n}), qos=1)
        time.sleep(0.3)
        assert service.call(lambda: service.resigned) is None
        # The public state never holds a hand: only its size.
        assert "hand" not in keys(players[0].latest_state(BASE)) and "hand_size" in keys(players[0].latest_state(BASE))
    finally:
        for client in players:
            client.close()


def test_the_service_logs_in_over_tls_with_its_configuration(secured):
    _broker, tls_port, certs = secured
    s = start_service(tls_port, tls=True, ca_certs=str(certs["ca"]))
    try:
        display = login(tls_port, "display", [f"{BASE}/state"], tls_ca=str(certs["ca"]))
        try:
            assert display.latest_state(BASE)["seq"] == s.call(lambda: s._state_seq)
        finally:
            display.close()
    finally:
        s.stop()


def test_the_service_refuses_a_broker_certificate_it_cannot_verify(secured, tmp_path):
    _broker, tls_port, _certs = secured
    other = tmp_path / "other"
    other.mkdir()
    config = Config.from_dict({"board": {"id": BOARD, "game": "serpientes"}, "inputs": {"enabled": False},
                               "mqtt": {"port": tls_port, "username": "arbitro", "password": ACCOUNTS["arbitro"],
                                        "tls": True, "ca_certs": str(make_certificates(other)["ca"])}})
    bridge = MqttBridge(config.mqtt, BOARD, lambda e: None)
    bridge.start()
    try:
        assert not bridge.connected.wait(1.5)  # another CA signed the broker's certificate
    finally:
        bridge.stop()


@pytest.mark.parametrize(("mqtt", "message"), [
    ({"certfile": "/x.crt", "tls": True}, "give both"),
    ({"certfile": "/x.crt", "keyfile": "/x.key"}, "only with mqtt.tls"),
    ({"password": "secret"}, "needs mqtt.username"),
    ({"tls": "yes"}, "expected bool"),
])
def test_bad_security_settings_stop_the_service_at_start_up(mqtt, message):
    from controller.config import ConfigError

    with pytest.raises(ConfigError, match=message):
        Config.from_dict({"mqtt": mqtt})
