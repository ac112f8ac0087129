"""A remote game of a variant that hides information (``Game.hides_information``: cards arbitro
deals), pure. It names no game: the game API's hidden-information hooks say what a board's seats
may see (``State.information_state``), whether a hidden card is theirs (``State.seen_by``) and how
to arrange what they cannot see (``State.rearranged``).

The host is the only board that holds the whole game. The joining board follows it in a position
that agrees with all its own seats may know — the public counts, its seats' hands and sequences —
the other cards placed arbitrarily, like a computer player's determinization (``State.resample``).
So every wire says no more than its receiver may know (``docs/remote.md``, "Hidden information"):

* its ``text`` is the action as everyone may see it (``State.public_action_text``: ``draw``,
  ``add``); the whole text goes ``sealed`` (X25519 and AES-GCM, :class:`Box`) when the receiving
  board may know it — a card drawn into one of the joining board's hands, a card the joining
  board's own seat adds — so that neither broker carries a card of a seat it does not seat;
* its digest is :func:`view_digest`: of what the joining board's seats may see, which both boards
  can work out.

The joining board checks each wire as far as it can: its own seats' draws, every public effect
(a host's step with the card it names, if any unseen card is of that kind). At the end the host's
status reveals its secret and its whole record (:func:`check_reveal`): the joining board replays
it and checks every action against the wire it got and every chance outcome against the
commitment; only then do its record and journal hold the host's cards.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Collection, Sequence

from controller.games import IllegalAction, State, get_game
from controller.games.base import Options

# cryptography is imported by the functions that need it: the service imports this module whatever
# it plays, and `arbitro run` starts fast (tests/test_startup_imports.py).


def hides_information(game: str, options: Options) -> bool:
    """True for a variant that keeps something from some seat (``Game.hides_information``): in a
    remote game of it only the host holds the whole game."""
    return get_game(game).hides_information(options)


def view_digest(state: State, seats: Collection[int]) -> str:
    """SHA-256 (32 hex digits) of what ``seats`` may see of ``state`` (``State.information_state``)."""
    return hashlib.sha256(state.information_state(seats).encode()).hexdigest()[:32]


def seen_by(state: State, seats: Collection[int], text: str) -> bool:
    """Whether one of ``seats`` may see the card the action ``text`` names (its own, or drawn for it)."""
    return state.seen_by(seats, state.action_from_text(text))


def apply_seen(state: State, seats: Collection[int], text: str) -> tuple[State, str, State | None]:
    """``text`` (the whole action, or as everyone sees it) applied to a position that agrees with all
    ``seats`` may know: the position after, the action as applied there, and the position before
    with its unseen cards arranged anew when the action's card lay elsewhere (else None).
    ``IllegalAction`` when no arrangement allows it."""
    try:
        action = state.action_from_text(text)
    except IllegalAction:
        same = [a for a in state.legal_actions() if state.public_action_text(a) == text]
        if not same:
            raise
        action = same[0]  # a card that stays unseen: any that reads so keeps to what the seats know
    arranged = None
    if action not in state.legal_actions():
        arranged = state.rearranged(seats, action)
        if arranged is None:
            raise IllegalAction(text, state.why_illegal(action))
        state = arranged
    return state.apply(action), state.action_to_text(action), arranged


SEALED_BLOCK = 128
"""A sealed text is padded to a multiple of this many bytes before it is sealed, so every sealed
wire of a game is as long as every other (an action text is far shorter): AES-GCM keeps the
length, and unpadded a card's kind could be read from it (``add straight`` 40 characters sealed,
``draw left`` 36...)."""


def pad(text: str) -> bytes:
    """``text`` in UTF-8, NUL bytes added up to the next multiple of :data:`SEALED_BLOCK` (one at
    least: an action text never holds a NUL, so the padding is told from the text)."""
    data = text.encode()
    return data + bytes(SEALED_BLOCK - len(data) % SEALED_BLOCK)


def unpad(data: bytes) -> str:
    """The text :func:`pad` padded (a text sealed unpadded, by a board from before, reads the same)."""
    return data.rstrip(b"\0").decode()


class Box:
    """Seals texts for the other board: a key agreed from this board's private key and the other's
    public one (X25519), AES-GCM with a nonce of the sender and the wire's seq, each text padded
    (:func:`pad`) so that its length tells nothing."""

    def __init__(self, private: bytes, peer_public: str, game: str) -> None:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF

        try:
            theirs = X25519PublicKey.from_public_bytes(bytes.fromhex(peer_public))
        except ValueError as exc:
            raise ValueError(f"the other board's key is not an X25519 public key ({exc})") from None
        shared = X25519PrivateKey.from_private_bytes(private).exchange(theirs)
        key = HKDF(hashes.SHA256(), 32, salt=None, info=f"arbitro remote {game}".encode()).derive(shared)
        self.aead = AESGCM(key)

    @staticmethod
    def _nonce(board: str, seq: int) -> tuple[bytes, bytes]:
        label = f"{board}:{seq}".encode()
        return hashlib.sha256(label).digest()[:12], label

    def seal(self, board: str, seq: int, text: str) -> str:
        nonce, label = self._nonce(board, seq)
        return base64.b64encode(self.aead.encrypt(nonce, pad(text), label)).decode()

    def open(self, board: str, seq: int, sealed: str) -> str:
        """The text ``board`` sealed for action ``seq``; ``ValueError`` for anything else."""
        from cryptography.exceptions import InvalidTag

        nonce, label = self._nonce(board, seq)
        try:
            return unpad(self.aead.decrypt(nonce, base64.b64decode(sealed, validate=True), label))
        except (InvalidTag, binascii.Error, UnicodeDecodeError):
            raise ValueError("its sealed text does not open with the boards' key") from None


def private_key(secret: bytes) -> bytes:
    """An X25519 private key made from ``secret`` (fresh random bytes)."""
    return hashlib.sha256(b"arbitro remote key:" + secret).digest()


def public_key(private: bytes) -> str:
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    return X25519PrivateKey.from_private_bytes(private).public_key().public_bytes_raw().hex()


def check_reveal(start: State, seats: Collection[int], texts: Sequence[str], wires: Sequence[tuple[str, str]],
                 known: Sequence[str | None]) -> tuple[State, str | None]:
    """The host's whole record ``texts`` replayed from ``start`` against what the joining board got:
    each wire's (public text, digest), and the whole text it knew (``known``: its own seats' actions,
    its draws; None: the host's hidden card). The position at the end, and why the record is wrong
    (None: it agrees; its chance is checked against the commitment by the caller)."""
    if len(texts) != len(wires):
        return start, f"the host's record has {len(texts)} actions, the game {len(wires)}"
    state = start
    for seq, (text, (public, dig), mine) in enumerate(zip(texts, wires, known, strict=True), start=1):
        try:
            action = state.action_from_text(text)
            after = state.apply(action)
        except (IllegalAction, ValueError) as exc:
            return state, f"action {seq} ({text}) is not legal there: {exc}"
        if state.public_action_text(action) != public or (mine is not None and mine != text):
            return state, f"action {seq} is {text} in the host's record, but {mine or public} in the game"
        if view_digest(after, seats) != dig:
            return state, f"action {seq} ({text}) leads to another position than its wire said"
        state = after
    return state, None
