"""Packaging and set-up (issue 19.11): the wheel carries the MIT licence the way PEP 639 has it,
built without a deprecation banner; the set-up script installs what the demo tells people to run
and says what it is installing."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_carries_the_mit_licence_and_builds_without_a_deprecation(tmp_path: Path) -> None:
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    source = tmp_path / "arbitro"
    for name in files:  # what a fresh clone holds, nothing built
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    # The environment's setuptools (the test extras ask for the same version as the build system):
    # offline, and what a fresh install's isolated build prints, it prints here.
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                            "-w", str(tmp_path / "dist"), str(source)], capture_output=True, text=True, timeout=300)
    said = built.stdout + built.stderr
    assert built.returncode == 0, said[-3000:]
    assert "deprecat" not in said.lower(), said[-3000:]
    (wheel,) = (tmp_path / "dist").glob("arbitro-*.whl")
    with zipfile.ZipFile(wheel) as z:
        info = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = z.read(info).decode()
        licence = z.read(info.replace("METADATA", "licenses/LICENSE")).decode()
    assert "License-Expression: MIT\n" in metadata and "License-File: LICENSE\n" in metadata
    assert licence.startswith("MIT License\n") and "the arbitro authors" in licence
    assert licence == (ROOT / "LICENSE").read_text()
    requires = re.search(r'\[build-system\]\nrequires = \["setuptools>=(\d+)"\]', (ROOT / "pyproject.toml").read_text())
    assert requires and int(requires[1]) >= 77  # the first setuptools with `license` as an SPDX expression


def test_the_set_up_script_installs_mosquitto_sub_and_says_what_it_installs() -> None:
    script = (ROOT / "scripts" / "dev").read_text()
    for command in ("demo", "test"):
        branch = script.split(f"\n  {command})\n", 1)[1].split("\n    ;;", 1)[0]
        assert "mosquitto-clients" in branch, f"scripts/dev {command} does not install mosquitto_sub"
    lines = script.splitlines()
    for n, line in enumerate(lines):
        if re.search(r"pip install|apt-get install|-m venv", line):
            before = "\n".join(lines[max(0, n - 3):n])
            assert 'echo "arbitro setup: ' in before, f"scripts/dev runs {line.strip()!r} without saying so"
