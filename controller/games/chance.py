"""Fair dice: every chance outcome drawn from a secret that nobody watching can know, provably.

Scheme ``arbitro-hmac-sha256-v1`` (``docs/mqtt.md``, "Fair dice", says it for anyone who wants to
check a record with code of their own):

* a game's **secret** is 32 random bytes; its **commitment**, SHA-256 of the secret in hex, is
  public from the game's first state, and the secret is revealed once the game is over;
* chance node ``n`` (0, 1, 2...: how many chance nodes were resolved before it in the game's line
  of play, values entered for physical dice included) lists its outcomes in the engine's order
  with exact probabilities; they become the smallest whole **weights** in the same proportions;
* ``HMAC-SHA256(secret, "n:k")`` for k = 0, 1, 2..., read as a 256-bit big-endian number, gives
  the first value below the largest multiple of the weights' total T; that value modulo T is r
  (rejection sampling: every r in 0..T-1 equally likely);
* the outcome is the first one whose running sum of weights exceeds r.

Pure: the generator is a function of (secret, node index), so a game replays exactly from its
secret and its actions, and nothing here reads a clock, a file or the global random.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TypeVar

SCHEME = "arbitro-hmac-sha256-v1"
SECRET_BYTES = 32
"""The size of a fresh secret (``secrets.token_bytes(SECRET_BYTES)`` in the service)."""
MIN_SECRET_BYTES = 16
"""At least 128 bits: a secret any shorter could be searched for."""
MAX_DENOMINATOR = 2**20
"""Float probabilities are read as the nearest fraction with a denominator up to this: exact for
every die, draw and deal (1/6, 1/36, 3/17...), whose float is within 2**-53 of it while two such
fractions lie at least 2**-40 apart."""

_SPACE = 1 << 256  # an HMAC-SHA256 output is a number in 0 .. 2**256 - 1

Outcome = TypeVar("Outcome")


def commitment(secret: bytes) -> str:
    """What the public state shows of ``secret`` while the game runs: SHA-256, in hex."""
    return hashlib.sha256(secret).hexdigest()


def seed_secret(seed: int) -> bytes:
    """The secret an explicit seed stands for (``board.seed``, ``new_game``'s ``seed``, ``arbitro
    demo --seed``): SHA-256 of ``arbitro-seed:<seed>``. Predictable by design: for tests and demos."""
    return hashlib.sha256(f"arbitro-seed:{seed}".encode()).digest()


def integer_weights(probabilities: Sequence[float | Fraction | int]) -> list[int]:
    """The smallest whole numbers in the proportions of ``probabilities`` (exact: see
    :data:`MAX_DENOMINATOR`); ``ValueError`` for a negative one, or one that is no such fraction."""
    read: dict[float | Fraction | int, Fraction] = {}  # each distinct value once (a die's faces share one)
    for p in probabilities:
        if p not in read:
            f = Fraction(p).limit_denominator(MAX_DENOMINATOR) if isinstance(p, float) else Fraction(p)
            if f < 0 or abs(f - Fraction(p)) > Fraction(1, 2**40):
                raise ValueError(f"chance probability {p!r} is not a fraction with a denominator up to 2**20")
            read[p] = f
    scale = math.lcm(*(f.denominator for f in read.values()))
    whole = {p: f.numerator * (scale // f.denominator) for p, f in read.items()}
    common = math.gcd(*whole.values())
    if common == 0:
        raise ValueError("a chance node needs an outcome with a probability above 0")
    return [whole[p] // common for p in probabilities]


def draw_index(secret: bytes, node: int, weights: Sequence[int]) -> int:
    """The index of the outcome that ``secret`` gives chance node ``node``, by whole ``weights``."""
    if len(secret) < MIN_SECRET_BYTES:
        raise ValueError(f"a chance secret needs at least {MIN_SECRET_BYTES} bytes")
    total = sum(weights)
    if total <= 0 or min(weights) < 0:
        raise ValueError("chance weights must be whole numbers >= 0 with a positive total")
    limit = _SPACE - _SPACE % total
    k = 0
    while True:  # a value at or above the limit is drawn again (k + 1): so far, about 1 in 2**250
        x = int.from_bytes(hmac.digest(secret, f"{node}:{k}".encode(), "sha256"), "big")
        if x < limit:
            break
        k += 1
    r = x % total
    for i, w in enumerate(weights):
        if r < w:
            return i
        r -= w
    raise AssertionError("unreachable: r < total")


def draw(secret: bytes, node: int, outcomes: Sequence[tuple[Outcome, float | Fraction | int]]) -> Outcome:
    """The outcome ``secret`` gives chance node ``node`` (``State.chance_outcomes()``)."""
    if not outcomes:
        raise ValueError("not a chance node")
    return outcomes[draw_index(secret, node, integer_weights([p for _, p in outcomes]))][0]
