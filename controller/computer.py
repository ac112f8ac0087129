"""A seat's own decision (a computer player's, ``Seat.decide``), taken on a thread of its own: the
table goes on being refereed meanwhile, and the decision (or the kind of error that stopped it) is
handed back to the loop."""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections.abc import Callable

from controller.ports import Call, Post
from controller.session import Decide

log = logging.getLogger("arbitro")

Answer = Callable[[Decide, str], None]


def decide_apart(ask: Decide, post: Post, decided: Answer, failed: Answer) -> None:
    """Decide ``ask`` off the loop; then ``decided(ask, text)`` or ``failed(ask, error)`` runs in
    the loop (``post``)."""
    threading.Thread(target=_decide, args=(ask, post, decided, failed), name="arbitro-player", daemon=True).start()


def _decide(ask: Decide, post: Post, decided: Answer, failed: Answer) -> None:
    try:
        seat, given = ask.decision()
        text = seat.decide(given, random.Random(ask.seed))
    except Exception as exc:  # warned at the table; `next` asks again
        log.exception("the computer player of seat %d could not decide", ask.seat)
        error = type(exc).__name__  # its kind only: an exception's text could tell what the seat holds
        post(Call(lambda: failed(ask, error), queue.Queue()))
        return
    post(Call(lambda: decided(ask, text), queue.Queue()))
