"""Start-up: ``arbitro run`` started -> retained ``online`` (and the first state) seen by a
subscriber, per game, and the service's memory: idle (``arbitro run`` once it told its first
state) and in play (``arbitro demo --headless --pace 0``: the service with its bots and simulated
board in one process, so an upper bound).

    python -m bench.startup [GAME ...] [--runs N]

Each run is a fresh process (``python -m controller.cli run``) with a simulated sensor board in
process (``sensors.url = "sim"``), mock GPIO and a private Mosquitto, as on a table after power-up,
and with the bytecode compiled once beforehand, as an installed service has it (``compileall``,
``systemd/README.md``; here into a cache of the bench's own, whatever ``PYTHONDONTWRITEBYTECODE``
says), so that compiling the sources is not counted as starting.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as paho

from controller.games import game_names
from controller.localbroker import Broker

PACKAGES = ("controller", "hardware", "firmware_bridge")
"""What the service imports from the checkout."""


def installed_env(folder: Path) -> dict[str, str]:
    """The environment of a service as installed: this checkout's bytecode compiled once, into a
    cache under ``folder`` (the checkout is left as it is)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", *PACKAGES], cwd=root, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return env


def rss_mb(pid: int) -> tuple[float, float]:
    """(current, peak) resident memory of process ``pid``, MB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def in_play_rss(game: str, port: int, env: dict[str, str], seconds: float = 8.0) -> float:
    """Peak RSS (MB) of ``arbitro demo`` playing ``game`` as fast as it goes for ``seconds``."""
    demo = subprocess.Popen([sys.executable, "-m", "controller.cli", "demo", "--game", game, "--headless",
                             "--pace", "0", "--no-display", "--broker", f"127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    peak = 0.0
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end and demo.poll() is None:
            peak = max(peak, rss_mb(demo.pid)[1])
            time.sleep(0.2)  # sampling interval
    finally:
        demo.terminate()
        demo.wait(10)
    return peak


def cpu_s(pid: int) -> float:
    """CPU time (user and system, every thread) process ``pid`` has used, s: what a start costs
    whatever else the machine runs meanwhile."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_once(game: str, port: int, folder: Path, env: dict[str, str]) -> tuple[float, float, float, float]:
    """Seconds from the process start to ``online``, and to the first state, seen on the broker;
    the service's RSS then (MB); and the CPU it had used when ``online`` was seen (s)."""
    board = f"start-{game}-{time.monotonic_ns()}"
    config = folder / f"{board}.toml"
    config.write_text(f'[board]\nid = "{board}"\ngame = "{game}"\n[sensors]\nurl = "sim"\n'
                      f'[inputs]\npin_factory = "mock"\n[mqtt]\nport = {port}\n')
    seen: dict[str, float] = {}
    done = threading.Event()
    pid: list[int] = []

    def on_message(client: paho.Client, userdata: object, msg: paho.MQTTMessage) -> None:
        kind = msg.topic.rsplit("/", 1)[-1]
        if kind not in seen and (kind != "status" or msg.payload == b"online"):
            seen[kind] = time.monotonic()
            if kind == "status":
                seen["cpu"] = cpu_s(pid[0])
        if "status" in seen and "state" in seen:
            done.set()

    watcher = paho.Client(paho.CallbackAPIVersion.VERSION2)
    watcher.on_message = on_message
    watcher.connect("127.0.0.1", port)
    watcher.subscribe([(f"arbitro/{board}/status", 1), (f"arbitro/{board}/state", 1)])
    watcher.loop_start()
    time.sleep(0.1)  # the subscription is in place before the service starts
    t0 = time.monotonic()
    service = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    pid.append(service.pid)
    try:
        if not done.wait(20):
            raise TimeoutError(f"{game}: no online/state within 20 s")
        rss = rss_mb(service.pid)[0]
    finally:
        service.terminate()
        service.wait(10)
        watcher.loop_stop()
        watcher.disconnect()
    return seen["status"] - t0, seen["state"] - t0, rss, seen["cpu"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="games (default: all)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="arbitro-bench-start-"))
    broker = Broker(folder).start()
    env = installed_env(folder)
    try:
        print(f"{'game':12} {'online min/median/max s':>24} {'state min/median/max s':>24} "
              f"{'CPU at online s':>24} {'idle RSS MB':>11} {'in play MB':>10}")
        for game in args.games or game_names():
            runs = [start_once(game, broker.port, folder, env) for _ in range(args.runs)]
            online, state, cpu = (sorted(r[i] for r in runs) for i in (0, 1, 3))
            cells = [f"{v[0]:.3f}/{v[len(v) // 2]:.3f}/{v[-1]:.3f}" for v in (online, state, cpu)]
            idle = max(r[2] for r in runs)
            print(f"{game:12} {cells[0]:>24} {cells[1]:>24} {cells[2]:>24} {idle:11.1f} "
                  f"{in_play_rss(game, broker.port, env):10.1f}")
    finally:
        broker.stop()


if __name__ == "__main__":
    main()
