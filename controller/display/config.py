"""What ``arbitro display`` is told to do: its broker, its address, the delays, the limits
(``arbitro display``'s options, docs/display.md)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field


@dataclass
class DisplayConfig:
    broker_host: str = "127.0.0.1"
    broker_port: int = 1883
    username: str = ""
    password: str = ""
    tls_ca: str | None = None  # a CA file: TLS to the broker ("" for the system's CAs)
    base_topic: str = "arbitro"
    host: str = "0.0.0.0"
    port: int = 8080
    delay: float = 0.0  # spectator delay for every board, seconds
    board_delays: dict[str, float] = field(default_factory=dict)  # per board, overriding ``delay``
    public_url: str = ""  # how phones reach this server (for the seat QR codes); default: the page's own address
    # Pairing a phone to a seat hands out that seat's hand, and names are the operator's to set: only
    # a board page opened with this key (the operator's link, printed at start) may do either.
    # Random unless given.
    pair_key: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    max_pages: int = 200  # open pages (event streams) at once; one more is refused (503) until one closes
    stuck_after: float = 10.0  # seconds a page may leave what it was sent unread before it is dropped
    hide_after: float = 600.0  # seconds a board may be offline before the hall hides it (greyed until then); 0: never
    tick: float = 0.02  # seconds: a busy hall's changes go out together, one write per page a tick
    event: str = ""  # the event and site tags of the records downloaded from this display (docs/records.md)
    site: str = ""

    def delay_of(self, board: str) -> float:
        return self.board_delays.get(board, self.delay)
