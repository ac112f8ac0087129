"""A hall broker restarted under many boards: ``python -m bench.hall [--boards 300] [--runs 10]``.

Every board is a real :class:`controller.mqtt.MqttBridge` publishing (as ``bench.mqtt_boards``
does) to its board's Mosquitto, which runs the shipped ``deploy/mosquitto/arbitro.conf`` (its
delivery lines: queue, persistence) and bridges the board to the hall's broker with the bridge
block of ``docs/mqtt.md``, word for word but for the address (and the TLS and login lines left
out). The hall broker runs the same shipped delivery lines. The board brokers here each host
``boards / brokers`` boards' bridge connections (one ``connection`` per board, as on its own Pi;
300 Mosquitto processes would not fit beside the rest of the work on this machine). One hall
display (a persistent MQTT 3.1.1 session) takes ``arbitro/+/events`` at the hall. Mid-run the hall
broker is stopped (SIGTERM: a clean restart, as ``systemctl restart``), left down for
``--outage`` seconds and started again. Each run then counts what never arrived (lost), what
arrived more than 10 s after the traffic ended (late), duplicates (QoS 1 allows them) and
order; exit status 1 when any run lost anything or broke order. ``--burners N`` runs N busy
loops beside it (CPU starvation).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.mqtt_boards import bench, board_id
from controller.localbroker import Broker

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "deploy" / "mosquitto" / "arbitro.conf"
NOT_DELIVERY = ("per_listener_settings", "allow_anonymous", "password_file", "acl_file", "listener", "certfile",
                "keyfile", "cafile", "tls_version", "persistence_location")
"""The shipped configuration's lines that are about who and where, not about delivery."""


def delivery_lines(folder: Path) -> list[str]:
    """The shipped broker configuration's delivery lines (queue, persistence, autosave), its data in ``folder``."""
    lines = [line for line in SHIPPED.read_text().splitlines()
             if line.strip() and not line.startswith("#") and line.split()[0] not in NOT_DELIVERY]
    assert "persistence true" in lines, "the shipped configuration lost its persistence"
    return [*lines, f"persistence_location {folder}/"]


def bridge_lines(hall_port: int, board: str = "table12") -> list[str]:
    """The board-side bridge block of docs/mqtt.md for ``board``, pointed at the hall broker on
    ``hall_port`` (plain MQTT, no account: the TLS and login lines are left out)."""
    doc = (ROOT / "docs" / "mqtt.md").read_text()
    block = re.search(r"```conf\n(# On board \"table12\".*?)```", doc, flags=re.S)
    assert block, "docs/mqtt.md lost its bridge example"
    lines = []
    for line in block.group(1).replace("table12", board).splitlines():
        if not line or line.startswith("#") or line.split()[0] in ("bridge_cafile", "remote_username",
                                                                    "remote_password"):
            continue
        if line.startswith("address "):
            line = f"address 127.0.0.1:{hall_port}"
        elif line.startswith("connection "):  # one broker hosts several boards' bridges here: unique names
            line = f"{line}-{board}"
        lines.append(line)
        if line.startswith("connection "):
            lines.append("restart_timeout 1")  # quick reconnects, for a short test
    return lines


@contextmanager
def burners(n: int) -> Iterator[None]:
    """``n`` busy loops (each a core's worth of demand) for the block's duration."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def hall_restart(folder: Path, boards: int, brokers: int, seconds: float, restart_at: float, outage: float,
                 seed: int = 1, pace: float = 2.0, burst: int = 10, burst_p: float = 0.05,
                 rejoin: float = 0.1) -> dict[str, Any]:
    """One run: ``boards`` boards behind ``brokers`` board brokers, the hall restarted at ``restart_at``;
    the display reconnects ``rejoin`` s after losing it (8 s: after the bridges, as a starved display)."""
    (folder / "hall").mkdir(parents=True)
    hall = Broker(folder / "hall", extra=delivery_lines(folder / "hall")).start()
    locals_: list[Broker] = []
    try:
        for k in range(brokers):
            d = folder / f"board{k}"
            d.mkdir()
            bridges = [line for i in range(k, boards, brokers) for line in bridge_lines(hall.port, board_id(i))]
            locals_.append(Broker(d, extra=[*delivery_lines(d), *bridges]).start())

        def restart() -> None:
            time.sleep(restart_at)
            hall.stop(timeout=60)  # a clean stop: it saves its sessions and queues
            time.sleep(outage)
            hall.start()

        return bench("127.0.0.1", hall.port, boards, seconds, pace, burst, burst_p, seed,
                     board_ports=[b.port for b in locals_], session=True, rejoin=rejoin, during=restart)
    finally:
        for b in locals_:
            b.stop()
        hall.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hall", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--brokers", type=int, default=30, help="board brokers hosting the boards' bridges")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20.0, help="traffic per run")
    parser.add_argument("--restart-at", type=float, default=8.0, help="seconds into the traffic")
    parser.add_argument("--outage", type=float, default=2.0, help="seconds the hall broker stays down")
    parser.add_argument("--burners", type=int, default=0, help="busy loops beside the run")
    parser.add_argument("--rejoin", type=float, default=0.1,
                        help="seconds before the hall display reconnects (8: after the bridges, as if starved)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    failed = 0
    print(f"{'run':>3} {'events':>7} {'lost':>5} {'late':>5} {'dupes':>6} {'boards out of order':>19} {'max s':>6}"
          "  load  result", flush=True)
    with burners(args.burners):
        for run in range(args.runs):
            with tempfile.TemporaryDirectory(prefix="arbitro-hall-") as tmp:
                r = hall_restart(Path(tmp), args.boards, args.brokers, args.seconds, args.restart_at, args.outage,
                                 seed=args.seed + run, rejoin=args.rejoin)
            failed += bool(r["lost"])
            load = Path("/proc/loadavg").read_text().split()[0]
            print(f"{run + 1:>3} {r['sent']:>7} {r['lost']:>5} {r['late']:>5} {r['duplicates']:>6} "
                  f"{r['disordered']:>19} {r['max_ms'] / 1e3:>6.1f} {load:>5}  "
                  + ("; ".join(r["problems"][:2]) or "every board complete and in order"), flush=True)
    print(f"{args.runs - failed} of {args.runs} runs lost nothing ({args.boards} boards, {args.brokers} board "
          f"brokers, hall down {args.outage:.0f} s at {args.restart_at:.0f} s, {args.burners} burners)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
