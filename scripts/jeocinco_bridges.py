"""Regenerate Jeocinco's shipped bridge geometry (``controller/games/jeocinco/bridges.json``) after a
change to the board model or the bridge rules:

    .venv/bin/python scripts/jeocinco_bridges.py

``tests/games/jeocinco/test_board.py`` fails while the file differs from the derivation. A script,
not a module of the game, so every game package keeps the same module set.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.games.jeocinco import board as B  # after the checkout is on the path

if __name__ == "__main__":
    B.BRIDGE_DATA_FILE.write_text(B.bridge_data_text(), encoding="utf-8")
    print(f"wrote {B.BRIDGE_DATA_FILE}")
