"""Regenerate the shipped bridge geometry after a change to the board model or the bridge rules:

    python -m controller.games.jeocinco.bridgegen

``tests/games/jeocinco/test_board.py`` fails while the file differs from the derivation.
"""

from __future__ import annotations

from controller.games.jeocinco import board as B


def main() -> None:
    B.BRIDGE_DATA_FILE.write_text(B.bridge_data_text(), encoding="utf-8")
    print(f"wrote {B.BRIDGE_DATA_FILE} ({B.NUM_BRIDGES} bridges before regenerating)")


if __name__ == "__main__":
    main()
