"""One board's table as the loop shell holds it, put together from the configuration: the board
wired up, the pure session, its journal, the teller, the LEDs and, in a game on two boards, the
link to the other board."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from controller.commands import RecentAnswers
from controller.config import Config
from controller.games.chance import SECRET_BYTES
from controller.journal import BoardJournal, Journal
from controller.lights import Lights
from controller.ports import Post, Publisher, Sound
from controller.remote_link import RemoteLink
from controller.session import Outcome, Session
from controller.teller import Teller
from controller.wiring import Wiring
from hardware.layout import Layout, load_layout
from hardware.leds import LedStrip


@dataclass(frozen=True)
class Table:
    """The parts of one board's service that the loop drives."""

    wiring: Wiring
    session: Session
    kept: BoardJournal | None  # the board's part of the journal (none: nothing is kept)
    teller: Teller
    lights: Lights
    remote: RemoteLink | None  # a remote game's own client on the board's broker, beside the displays' bridge
    opened: Outcome  # the session opened (resumed from the journal, or a new game): what it first says

    @classmethod
    def build(cls, config: Config, strip: LedStrip, layout: Layout | None, journal: Journal | None,
              mqtt: Publisher | None, sound: Sound | None, post: Post, clock: Callable[[], float],
              wall_clock: Callable[[], float]) -> Table:
        """The table for ``config``'s board; ``post``: into the loop; the wall clock stamps states
        and events, judging never reads it."""
        board = config.board
        wiring = Wiring(layout or load_layout(board.layout or board.game), board.game,
                        layout_for=lambda game: load_layout(board.layout or game), strip_fits=strip.can_show)
        session = Session(board, check_board=wiring.check, fresh_secret=lambda: secrets.token_bytes(SECRET_BYTES),
                          answers=RecentAnswers(persist=journal is not None), peer=config.remote.peer)
        remote = RemoteLink(config.mqtt, board.id, config.remote.peer, post) \
            if config.remote.peer and mqtt is not None else None
        kept = BoardJournal(journal, board.id, clock) if journal is not None else None
        if journal is not None:  # the show request sets up a finished game of the journal at the table
            session.recorded = journal.finished
        teller = Teller(session, board, wiring, kept, mqtt, sound, clock=clock, wall_clock=wall_clock, remote=remote)
        notices = kept.open(session, resume=config.journal.resume) if kept is not None else []
        teller.resumed_serial = session.serial  # 0: no game resumed
        lights = Lights(strip, wiring, config.leds.blink_hz, config.leds.patterns)
        return cls(wiring, session, kept, teller, lights, remote, session.opened(notices))
