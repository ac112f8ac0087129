"""``scripts/dev install`` (issue 34.7): a fresh clone installs the Pi's service, display, broker,
user, configuration and both systemd units, with the Pi's extras and no test kit. Only
``systemctl`` is replaced (a shim on PATH that records its calls); everything else runs for real,
into a scratch root (``ARBITRO_ROOT``): the venv, ``useradd --prefix``, the files under /etc."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIM = """#!/bin/sh
echo "$*" >> "$SYSTEMCTL_LOG"
"""
TEST_KIT = {"pytest", "playwright", "hypothesis", "ruff", "mypy", "vulture", "babel", "pytest-xdist"}


def _scratch_root(tmp_path: Path) -> Path:
    """A root with this machine's accounts files (useradd --prefix edits them there)."""
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    for name in ("passwd", "group", "shadow", "gshadow", "login.defs"):
        if Path("/etc", name).exists():
            shutil.copy2(Path("/etc", name), root / "etc" / name)
    return root


def _install(source: Path, root: Path, shims: Path, log: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}", "ARBITRO_ROOT": str(root),
           "SYSTEMCTL_LOG": str(log)}
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run(["bash", "scripts/dev", "install"], cwd=source, env=env, capture_output=True, text=True,
                          timeout=900)


def test_a_fresh_clone_installs_the_service_and_the_display_without_the_test_kit(tmp_path: Path) -> None:
    source = tmp_path / "arbitro"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(source)], check=True)
    root = _scratch_root(tmp_path)
    shims = tmp_path / "shims"
    shims.mkdir()
    (shims / "systemctl").write_text(SHIM)
    (shims / "systemctl").chmod(0o755)
    log = tmp_path / "systemctl.log"
    passwd_before = Path("/etc/passwd").read_text()

    done = _install(source, root, shims, log)
    assert done.returncode == 0, done.stderr[-4000:]

    # Both units, as shipped, enabled and started after the reload; the broker enabled with them.
    units = root / "etc/systemd/system"
    for unit in ("arbitro.service", "arbitro-display.service"):
        assert (units / unit).read_text() == (ROOT / "systemd" / unit).read_text()
    assert log.read_text().splitlines() == [
        "daemon-reload",
        "enable mosquitto.service arbitro.service arbitro-display.service",
        "restart arbitro.service arbitro-display.service",
    ]
    # The configuration from the sample, the user with no login: in the scratch root only.
    config = root / "etc/arbitro/config.toml"
    assert config.read_text() == (ROOT / "deploy/arbitro.toml").read_text()
    (user,) = [line.split(":") for line in (root / "etc/passwd").read_text().splitlines()
               if line.startswith("arbitro:")]
    assert user[5:] == ["/var/lib/arbitro", "/usr/sbin/nologin"] and int(user[2]) < 1000  # a system user
    assert Path("/etc/passwd").read_text() == passwd_before

    # The runtime venv: arbitro with the Pi's extras, no browser, no test tools, no Babel; it runs.
    python = root / "opt/arbitro/.venv/bin/python"
    listed = subprocess.run([str(python), "-m", "pip", "list", "--format=json"], capture_output=True, text=True,
                            check=True).stdout
    installed = {p["name"].lower() for p in json.loads(listed)}
    assert {"arbitro", "lgpio", "adafruit-circuitpython-neopixel-spi", "aiohttp"} <= installed, installed
    assert not installed & TEST_KIT, installed & TEST_KIT
    assert not any("chromium" in name or "playwright" in name for name in installed)
    # pip compiled the bytecode as it installed: the unit's read-only system never has to.
    assert list((root / "opt/arbitro/.venv/lib").glob("python3*/site-packages/controller/__pycache__/cli.*.pyc"))
    version = subprocess.run([str(root / "opt/arbitro/.venv/bin/arbitro"), "--version"], capture_output=True,
                             text=True)
    assert version.returncode == 0 and version.stdout.startswith("arbitro "), version.stderr
    # The service's words come from the shipped catalogues, not from Babel.
    spanish = subprocess.run([str(python), "-c", "from controller.i18n import catalogue; "
                              "print(catalogue('es').pgettext('board.missing', 'a piece is missing at {place}'))"],
                             capture_output=True, text=True, cwd=tmp_path)
    assert spanish.returncode == 0 and spanish.stdout.strip() != "a piece is missing at {place}", spanish

    # Run again (a `git pull` later): the operator's configuration stays, the units restart.
    config.write_text(config.read_text().replace('game = "contigo"', 'game = "serpientes"'))
    log.unlink()
    again = _install(source, root, shims, log)
    assert again.returncode == 0, again.stderr[-4000:]
    assert 'game = "serpientes"' in config.read_text()
    assert "restart arbitro.service arbitro-display.service" in log.read_text()


def test_the_install_installs_no_browser_and_no_test_tools() -> None:
    """What scripts/dev install asks apt and pip for: the broker and the Pi's extras, nothing of the test kit."""
    script = (ROOT / "scripts" / "dev").read_text()
    branch = script.split("\n  install)\n", 1)[1].split("\n    ;;", 1)[0]
    steps = branch + script.split("install_runtime() {", 1)[1].split("\n}\n", 1)[0]
    assert "apt_install mosquitto mosquitto-clients" in branch
    for word in ("chromium", "playwright", "[test]", "espeak"):
        assert word not in steps
    assert "'.[pi]'" in steps
