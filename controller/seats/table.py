"""A person at the board: the default seat. The legal moves are lit for it and the board's own
changes are its moves."""

from __future__ import annotations

from typing import ClassVar

from controller.seats.base import Seat


class TableSeat(Seat):
    kind: ClassVar[str] = "table"
    at_table: ClassVar[bool] = True
    by: ClassVar[str] = "board"
