"""``python -m controller.tools.schematic [DIR]``: (re)write docs/build's schematics, netlists, templates and
the sensor module's files from the shipped layouts (``outputs`` says which)."""

from __future__ import annotations

import sys
from pathlib import Path

from controller.tools.schematic import OUT_DIR, outputs


def main(argv: list[str]) -> int:
    directory = Path(argv[0]) if argv else OUT_DIR
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in outputs().items():
        (directory / name).write_bytes(data)
        print(directory / name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
