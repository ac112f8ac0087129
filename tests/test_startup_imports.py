"""What ``arbitro run`` imports before it says ``online``: only what the service needs, so that a
Pi reaches ``online`` fast (``bench.startup``)."""

from __future__ import annotations

import json
import subprocess
import sys

LAZY = ("controller.sound", "controller.voice", "hardware.buzzer", "controller.games.contigo",
        "controller.games.jeocinco", "controller.games.scriptorium", "controller.games.serpientes", "cryptography")
"""Modules the service's start does not need: the sounds (off unless configured), the engines
(only the configured game's is imported, once the configuration is read) and the cryptography
that seals a remote game's hidden cards."""


def _imported_by_the_run_command() -> set[str]:
    code = ("import sys\n"
            "from controller.cli import build_parser\n"
            "build_parser().parse_args(['run'])\n"
            "import controller.app\n"
            "import json; print(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout))


def test_the_run_commands_parser_and_the_service_import_no_engine_and_no_sound() -> None:
    imported = _imported_by_the_run_command()
    assert not imported & set(LAZY), sorted(imported & set(LAZY))


def test_the_version_is_still_told_when_asked_for() -> None:
    done = subprocess.run([sys.executable, "-m", "controller.cli", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("arbitro "), (done.stdout, done.stderr)
