"""The remote bench: from a move accepted on board A to its carry-out LEDs on board B, through the
bridge (``python -m bench.remote``; a row of ``python -m bench``).

Two boards in different places, in one process: each a simulated table (the real firmware on a
pty, its own gpiozero mock pins, a recording strip) with its service on its own Mosquitto, the two
brokers bridged over TLS with a throwaway CA and per-board accounts, as ``docs/remote.md`` sets it
up. ``tests/test_remote_e2e.py`` plays whole games on the same two boards.

The figure: board A's ``action`` event for a move its table played (told once A's journal has it,
right before the wire goes out) to board B's ``expected`` event for it (told right after B's LEDs
show the carry-out pattern), both read by the service's watchers on the same clock.
"""

from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.app import build_service
from controller.config import Config, RemoteConfig
from controller.games import CHANCE, ChannelKind
from controller.hands import Hands, close_table
from controller.localbroker import Broker, free_port
from controller.remote_link import bridge_stanza
from controller.session import Session
from firmware_bridge.sim import SimulatedBoard
from hardware.layout import load_layout

PASSWORD = "remote-secret"


def throwaway_ca(directory: Path) -> tuple[Path, Path, Path]:
    """A CA and a certificate for 127.0.0.1 signed by it, made here with openssl: (ca, cert, key)."""
    ca, ca_key = directory / "ca.crt", directory / "ca.key"
    cert, key, csr = directory / "broker.crt", directory / "broker.key", directory / "broker.csr"

    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True)

    run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
        "-subj", "/CN=arbitro test CA", "-keyout", str(ca_key), "-out", str(ca))
    run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=127.0.0.1",
        "-keyout", str(key), "-out", str(csr))
    ext = directory / "san.ext"
    ext.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial", "-days", "2",
        "-extfile", str(ext), "-out", str(cert))
    return ca, cert, key


def brokers(tmp: Path, host: str, joiner: str) -> tuple[Broker, Broker, int]:
    """The host's broker, bridged (TLS, account ``remote-<host>``) to the joining board's broker, and
    the joining broker's TLS port. The joining broker's ACL lets that account write only the host's
    remote topics and read only the joining board's."""
    (tmp / "a").mkdir()
    (tmp / "b").mkdir()
    ca, cert, key = throwaway_ca(tmp)
    passwd, acl = tmp / "b" / "passwd", tmp / "b" / "acl"
    subprocess.run(["mosquitto_passwd", "-c", "-b", str(passwd), f"remote-{host}", PASSWORD], check=True,
                   capture_output=True)
    acl.write_text(f"user remote-{host}\ntopic write arbitro/{host}/remote/#\ntopic read arbitro/{joiner}/remote/#\n"
                   "pattern readwrite #\n")  # the anonymous service on loopback (a test's): everything
    tls_port = free_port()
    joining = Broker(tmp / "b", anonymous=True, extra=[
        f"listener {tls_port} 127.0.0.1", f"cafile {ca}", f"certfile {cert}", f"keyfile {key}",
        "tls_version tlsv1.2", "per_listener_settings false", f"password_file {passwd}", f"acl_file {acl}"]).start()
    stanza = bridge_stanza("arbitro", host, RemoteConfig(peer=joiner, address=f"127.0.0.1:{tls_port}",
                                                         username=f"remote-{host}", password=PASSWORD, cafile=str(ca)))
    hosting = Broker(tmp / "a", extra=["max_queued_messages 100000", *stanza.splitlines()]).start()
    return hosting, joining, tls_port


class Board:
    """One simulated table and its service, in a remote game with ``peer``."""

    def __init__(self, game: str, board_id: str, peer: str, port: int, journal: Path, *,
                 board: dict[str, Any] | None = None) -> None:
        self.config = Config.from_dict({
            "board": {"id": board_id, "game": game, "language": "en", "chance": "auto", **(board or {})},
            "sensors": {"debounce_ms": 20, "commit_ms": 20},
            "inputs": {"pin_factory": "mock"},
            "leds": {"backend": "sim"},
            "mqtt": {"port": port},
            "journal": {"path": str(journal)},
            "remote": {"peer": peer},
        })
        self.layout = load_layout(game)
        self.sim = SimulatedBoard(self.layout.blocks, board_kind=self.layout.board_kind)
        self.service = build_service(self.config, sensor_url=self.sim.url, mqtt_client_id=f"arbitro-{board_id}")
        self.hands = Hands(self.service, self.sim)
        session = self.service.session
        start = session.state.physical_view()
        self.hands.set_channels({c: v for c, v in start.items() if session.kinds[c] != ChannelKind.OFFSET and v})
        self.service.start()

    def read(self, fn: Callable[[Session], Any]) -> Any:
        return self.service.read(fn)

    def tend(self) -> bool:
        """The hands do what the LEDs ask, once: set up what chance asks, carry out an expected move
        (a computer player's or the other board's). True when they did something."""
        s = self.service.session
        over, expected, state, view, sensed, kinds = self.read(lambda s: (
            s.over, s.expected, s.state, s.referee.expected(), dict(s.sensed), dict(s.kinds)))
        if over or not self.read(lambda s: s.board_known):
            return False
        if expected is not None and not expected.hint:
            after = state.apply(state.action_from_text(expected.text)).physical_view()
            changes = {c: v for c, v in after.items() if sensed.get(c, 0) != v}
        elif state.current_player != CHANCE:
            changes = {c: v for c, v in view.items() if sensed.get(c, 0) != v}
        else:
            changes = {}
        del s, kinds
        if not changes:
            return False
        self.hands.set_channels(changes)
        return True

    def close(self) -> None:
        close_table(self.service, self.sim)


def wait(predicate: Callable[[], object], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.005)  # poll interval
    raise TimeoutError(f"waited {timeout}s for {what}")

def measure(moves: int, tmp: Path, seed: int = 1) -> list[float]:
    """Seconds from a move accepted on board A (its table, random legal moves) to the carry-out
    LEDs on board B, for up to ``moves`` moves of a Contigo game (B's computer player answers each)."""
    hosting, joining, _ = brokers(tmp, "a", "b")
    host = Board("contigo", "a", "b", hosting.port, tmp / "a.sqlite", board={"seats": ["table", "remote"]})
    joiner = Board("contigo", "b", "a", joining.port, tmp / "b.sqlite")
    accepted: dict[int, float] = {}
    lit: dict[int, float] = {}

    def on_a(event: dict[str, Any]) -> None:  # the move A's table played, told (journaled, the wire out next)
        if event["type"] == "action" and event["by"] == "board":
            accepted.setdefault(event["move"], time.perf_counter())

    def on_b(event: dict[str, Any]) -> None:  # the same move lit for carry-out at B (the LEDs came first)
        if event["type"] == "expected":
            lit.setdefault(event["move"] + 1, time.perf_counter())

    host.service.watchers.append(on_a)
    joiner.service.watchers.append(on_b)
    rng = random.Random(seed)
    try:
        code = host.read(lambda s: (s.remote_view() or {})["code"])
        ok, result = joiner.service.call(lambda: joiner.service.session.request(
            "join", {"code": code, "seats": ["bot:easy"]}).answer or (False, "no answer"))
        if not ok:
            raise RuntimeError(f"join refused: {result}")
        deadline = time.monotonic() + 120
        while len(lit) < moves and time.monotonic() < deadline:
            state, mine, over = host.read(lambda s: (s.state, s.state.current_player >= 0 and s.seats[
                s.state.current_player] == "table" and s.board_known and s.sensed_matches() and s.held is None, s.over))
            if over:
                break
            if mine:
                told = len(accepted)
                host.hands.enact(state, rng.choice(state.own_actions()))
                wait(lambda: len(accepted) > told or host.read(lambda s: s.verdict.kind in ("violation", "ambiguous")),  # noqa: B023
                     "A's move")  # (the wait runs within this pass of the loop)
            if not (host.tend() | joiner.tend()):
                time.sleep(0.002)  # poll interval: the hands look again
    finally:
        for board in (host, joiner):
            board.close()
        hosting.stop()
        joining.stop()
    return [lit[m] - accepted[m] for m in sorted(lit) if m in accepted]


def main(argv: list[str] | None = None) -> int:
    import argparse
    import statistics
    import tempfile

    parser = argparse.ArgumentParser(prog="python -m bench.remote", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args(argv)
    latencies = sorted(measure(args.moves, Path(tempfile.mkdtemp(prefix="arbitro-remote-"))))
    if not latencies:
        print("no move crossed")
        return 1
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
    print(f"{len(latencies)} moves: A accepted -> B's carry-out LEDs: p50 {statistics.median(latencies) * 1e3:.1f} ms, "
          f"p99 {p99 * 1e3:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
