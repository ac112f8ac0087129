"""The sensor MCU's wire protocol: message dataclasses, a frame encoder and a resyncing decoder.

Pure code (no serial, no threads, no clock); ``docs/protocol.md`` is the specification, with
byte-level examples. In short, a frame on the wire is::

    0x00  COBS( version:u8  type:u8  seq:u16  payload  crc:u16 )  0x00

All integers are big-endian. ``crc`` is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no
reflection, no final XOR) over ``version .. payload``, i.e. ``binascii.crc_hqx(body, 0xFFFF)``.
The leading delimiter makes a frame survive garbage written just before it; two delimiters in a
row are an empty frame and are ignored silently.

Channels are one flat index space ``0 .. N-1``; ``Hello.blocks`` gives their kinds in order as
``((kind, count), ...)``. Every channel value is one byte (0..255):

- ``PRESENCE``: 0 absent, 1 present (slots, grid edges, intersections, ring positions).
- ``COUNT``: a small integer (beads in a pit), 0..63 from the reference firmware's ADC.
- ``PIECE``: 0 empty, else ``1 + 2 * player + double`` (see ``piece_code`` / ``piece_of``).
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass
from typing import ClassVar

PROTOCOL_VERSION = 1
"""The ``version`` byte of every frame, and ``Hello.protocol``."""

PRESENCE = "presence"
COUNT = "count"
PIECE = "piece"
KINDS: dict[str, int] = {PRESENCE: 1, COUNT: 2, PIECE: 3}
"""Channel kind name -> its wire code in ``HELLO``."""
KIND_NAMES: dict[int, str] = {code: name for name, code in KINDS.items()}

MAX_FRAME = 1024
"""Longest COBS-encoded frame (delimiters excluded) the decoder accepts; longer runs are dropped."""
SNAPSHOT_PART_MAX = 240
"""Most channel values one ``SnapshotPart`` frame carries (the encoder's ``split_snapshot`` limit)."""

# Error codes carried by ``Error.code``.
ERR_BAD_FRAME = 1  # the MCU received a frame whose COBS, CRC or length failed
ERR_UNKNOWN_TYPE = 2  # the MCU received a valid frame of a type it does not handle
ERR_BAD_CONFIG = 3  # a CONFIGURE value was out of range (the old settings stay)
ERR_SCAN_OVERRUN = 4  # a scan took longer than the scan period
ERR_TX_OVERFLOW = 5  # the MCU dropped outgoing frames (nobody reading)


def piece_code(player: int, double: bool = False) -> int:
    """The ``PIECE`` channel value for ``player`` (0-based, 0..126) with a single or double piece."""
    if not 0 <= player <= 126:
        raise ValueError(f"player {player} out of range 0..126")
    return 1 + 2 * player + int(double)


def piece_of(code: int) -> tuple[int, bool] | None:
    """Inverse of ``piece_code``: ``(player, double)``, or ``None`` for 0 (empty)."""
    if code == 0:
        return None
    return (code - 1) // 2, bool((code - 1) % 2)


@dataclass(frozen=True)
class Message:
    """Base of every message; ``TYPE`` is its wire type byte."""

    TYPE: ClassVar[int] = -1

    def payload(self) -> bytes:
        """The message's payload bytes (between ``seq`` and ``crc``)."""
        return b""

    @classmethod
    def parse(cls, payload: bytes) -> Message:
        """Build the message from its payload; raises ``ValueError`` (or struct.error) if malformed."""
        if payload:
            raise ValueError(f"{cls.__name__} takes no payload")
        return cls()


def _str8(text: str) -> bytes:
    raw = text.encode()
    if len(raw) > 255:
        raise ValueError("string longer than 255 bytes")
    return bytes([len(raw)]) + raw


def _read_str8(payload: bytes, pos: int) -> tuple[str, int]:
    n = payload[pos]
    end = pos + 1 + n
    if end > len(payload):
        raise ValueError("truncated string")
    return payload[pos + 1 : end].decode(), end


@dataclass(frozen=True)
class Hello(Message):
    """MCU -> host, at boot, on ``RequestHello`` and after ``Configure``: who the board is.

    ``blocks`` is the ordered channel layout ``((kind, count), ...)``; the current settings are
    ``scan_us`` (scan period), ``debounce_scans`` (a change is reported after this many equal
    scans) and ``heartbeat_ms`` (a HEARTBEAT is sent after this long without any frame).
    Payload: protocol u8, board_kind str8, firmware str8, scan_us u32, debounce_scans u8,
    heartbeat_ms u16, n u8, n x (kind u8, count u16).
    """

    TYPE: ClassVar[int] = 0x01
    protocol: int
    board_kind: str
    firmware: str
    blocks: tuple[tuple[str, int], ...]
    scan_us: int = 1000
    debounce_scans: int = 3
    heartbeat_ms: int = 250

    @property
    def channels(self) -> int:
        """Total number of channels."""
        return sum(count for _, count in self.blocks)

    def kinds(self) -> list[str]:
        """The kind of every channel, indexed by channel."""
        return [kind for kind, count in self.blocks for _ in range(count)]

    def payload(self) -> bytes:
        out = bytearray([self.protocol]) + _str8(self.board_kind) + _str8(self.firmware)
        out += struct.pack(">IBHB", self.scan_us, self.debounce_scans, self.heartbeat_ms, len(self.blocks))
        for kind, count in self.blocks:
            out += struct.pack(">BH", KINDS[kind], count)
        return bytes(out)

    @classmethod
    def parse(cls, payload: bytes) -> Hello:
        protocol = payload[0]
        board_kind, pos = _read_str8(payload, 1)
        firmware, pos = _read_str8(payload, pos)
        scan_us, debounce, heartbeat, n = struct.unpack_from(">IBHB", payload, pos)
        pos += 8
        if len(payload) != pos + 3 * n:
            raise ValueError("bad HELLO length")
        blocks = []
        for i in range(n):
            code, count = struct.unpack_from(">BH", payload, pos + 3 * i)
            blocks.append((KIND_NAMES[code], count))
        return cls(protocol, board_kind, firmware, tuple(blocks), scan_us, debounce, heartbeat)


@dataclass(frozen=True)
class SnapshotPart(Message):
    """MCU -> host: part ``part`` (0-based) of ``parts`` of snapshot ``snapshot_id``.

    ``values`` are the debounced values of channels ``first .. first+len(values)-1`` out of
    ``total``. All parts of one snapshot are sent back to back, before any later CHANGED.
    Payload: snapshot_id u16, part u8, parts u8, first u16, total u16, values (1 byte each).
    """

    TYPE: ClassVar[int] = 0x02
    snapshot_id: int
    part: int
    parts: int
    first: int
    total: int
    values: bytes

    def payload(self) -> bytes:
        return struct.pack(">HBBHH", self.snapshot_id, self.part, self.parts, self.first, self.total) + self.values

    @classmethod
    def parse(cls, payload: bytes) -> SnapshotPart:
        sid, part, parts, first, total = struct.unpack_from(">HBBHH", payload)
        values = payload[8:]
        if part >= parts or first + len(values) > total:
            raise ValueError("inconsistent SNAPSHOT part")
        return cls(sid, part, parts, first, total, bytes(values))


@dataclass(frozen=True)
class Changed(Message):
    """MCU -> host: channel ``channel`` settled on ``value`` at MCU uptime ``mcu_ms`` (mod 2**32).

    Payload: channel u16, value u8, mcu_ms u32.
    """

    TYPE: ClassVar[int] = 0x03
    channel: int
    value: int
    mcu_ms: int

    def payload(self) -> bytes:
        return struct.pack(">HBI", self.channel, self.value, self.mcu_ms)

    @classmethod
    def parse(cls, payload: bytes) -> Changed:
        if len(payload) != 7:
            raise ValueError("bad CHANGED length")
        return cls(*struct.unpack(">HBI", payload))


@dataclass(frozen=True)
class Heartbeat(Message):
    """MCU -> host, after ``heartbeat_ms`` without any other frame: uptime and scans done (mod 2**32).

    Payload: mcu_ms u32, scans u32.
    """

    TYPE: ClassVar[int] = 0x04
    mcu_ms: int
    scans: int

    def payload(self) -> bytes:
        return struct.pack(">II", self.mcu_ms, self.scans)

    @classmethod
    def parse(cls, payload: bytes) -> Heartbeat:
        if len(payload) != 8:
            raise ValueError("bad HEARTBEAT length")
        return cls(*struct.unpack(">II", payload))


@dataclass(frozen=True)
class Error(Message):
    """MCU -> host: something went wrong (``code`` is one of the ``ERR_*`` constants).

    Payload: code u8, message str8.
    """

    TYPE: ClassVar[int] = 0x05
    code: int
    message: str

    def payload(self) -> bytes:
        return bytes([self.code]) + _str8(self.message)

    @classmethod
    def parse(cls, payload: bytes) -> Error:
        text, end = _read_str8(payload, 1)
        if end != len(payload):
            raise ValueError("bad ERROR length")
        return cls(payload[0], text)


@dataclass(frozen=True)
class RequestSnapshot(Message):
    """Host -> MCU: send a full SNAPSHOT now. No payload."""

    TYPE: ClassVar[int] = 0x10


@dataclass(frozen=True)
class Configure(Message):
    """Host -> MCU: new scan period (µs, 100..1_000_000), debounce (1..255 scans) and heartbeat.

    ``heartbeat_ms`` 0 keeps the current heartbeat. The MCU answers with a HELLO showing the
    settings now in force (or an ERROR ``ERR_BAD_CONFIG``, keeping the old ones).
    Payload: scan_us u32, debounce_scans u8, heartbeat_ms u16.
    """

    TYPE: ClassVar[int] = 0x11
    scan_us: int
    debounce_scans: int
    heartbeat_ms: int = 0

    def payload(self) -> bytes:
        return struct.pack(">IBH", self.scan_us, self.debounce_scans, self.heartbeat_ms)

    @classmethod
    def parse(cls, payload: bytes) -> Configure:
        if len(payload) != 7:
            raise ValueError("bad CONFIGURE length")
        return cls(*struct.unpack(">IBH", payload))


@dataclass(frozen=True)
class RequestHello(Message):
    """Host -> MCU: send HELLO now (the host does this on every (re)connect). No payload."""

    TYPE: ClassVar[int] = 0x12


@dataclass(frozen=True)
class SetRaw(Message):
    """Host -> MCU: ``on`` 1: analog channels report the bare ADC reading ``read_u16() >> 8`` (0..255),
    uncalibrated, for ``arbitro calibrate``; 0: back to values. The MCU answers with a HELLO (so the
    host takes a fresh snapshot, already in the new units). Payload: on u8."""

    TYPE: ClassVar[int] = 0x13
    on: int

    def payload(self) -> bytes:
        return bytes([1 if self.on else 0])

    @classmethod
    def parse(cls, payload: bytes) -> SetRaw:
        if len(payload) != 1:
            raise ValueError("bad SET_RAW length")
        return cls(payload[0])


@dataclass(frozen=True)
class Stop(Message):
    """Host -> MCU: leave the scan loop; the Pico's ``main.py`` returns to the MicroPython REPL (Ctrl-C
    is off while the firmware runs), so ``mpremote`` can copy new files. No payload, no answer."""

    TYPE: ClassVar[int] = 0x14


MESSAGE_TYPES: dict[int, type[Message]] = {
    cls.TYPE: cls
    for cls in (Hello, SnapshotPart, Changed, Heartbeat, Error, RequestSnapshot, Configure, RequestHello, SetRaw, Stop)
}


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``data``: ``binascii.crc_hqx(data, 0xFFFF)`` (check value 0x29B1)."""
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    """COBS-encode ``data`` (the result holds no zero byte; a 254-byte run ends with an extra 0x01)."""
    out = bytearray()
    for segment in data.split(b"\x00"):
        while len(segment) >= 254:
            out.append(255)
            out += segment[:254]
            segment = segment[254:]
        out.append(len(segment) + 1)
        out += segment
    return bytes(out)


def cobs_decode(data: bytes) -> bytes | None:
    """Decode one COBS block sequence (no delimiters); ``None`` if it is not valid COBS."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        out += data[i + 1 : end]
        i = end
        if code < 255 and i < n:
            out.append(0)
    return bytes(out)


def encode(msg: Message, seq: int) -> bytes:
    """One complete frame for ``msg`` with sequence number ``seq`` (mod 65536), both delimiters included."""
    body = struct.pack(">BBH", PROTOCOL_VERSION, msg.TYPE, seq & 0xFFFF) + msg.payload()
    body += struct.pack(">H", crc16(body))
    return b"\x00" + cobs_encode(body) + b"\x00"


def split_snapshot(values: bytes | list[int] | tuple[int, ...], snapshot_id: int) -> list[SnapshotPart]:
    """The ``SnapshotPart`` messages of one snapshot, ``SNAPSHOT_PART_MAX`` values each (one part if empty)."""
    data = bytes(values)
    total = len(data)
    starts = list(range(0, total, SNAPSHOT_PART_MAX)) or [0]
    return [
        SnapshotPart(snapshot_id & 0xFFFF, i, len(starts), first, total, data[first : first + SNAPSHOT_PART_MAX])
        for i, first in enumerate(starts)
    ]


class Decoder:
    """Turns a byte stream into ``(seq, message)`` pairs; never raises on any input.

    Bytes are buffered up to each ``0x00`` delimiter; each non-empty run between delimiters is
    COBS-decoded, length- and CRC-checked, version-checked and parsed. A run that fails is
    dropped and counted, and decoding goes on at the next delimiter, so a corrupt or truncated
    frame costs only itself. Counters (plain ints, cumulative):

    - ``frames``: valid messages returned.
    - ``corrupt``: runs dropped for bad COBS, bad length, bad CRC, or over ``MAX_FRAME`` bytes.
    - ``invalid``: CRC-valid frames dropped for an unknown type, a malformed payload or a
      protocol version other than ``PROTOCOL_VERSION`` (``wrong_version`` counts the latter).
    - ``bytes_dropped``: bytes of all dropped runs.
    """

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buf = bytearray()
        self._overlong = False
        self.frames = 0
        self.corrupt = 0
        self.invalid = 0
        self.wrong_version = 0
        self.bytes_dropped = 0

    def reset(self) -> None:
        """Forget any partial frame (counters are kept); call after reopening the port."""
        self._buf.clear()
        self._overlong = False

    def feed(self, data: bytes) -> list[tuple[int, Message]]:
        """Consume ``data``; return the complete valid messages it finished, in order."""
        out: list[tuple[int, Message]] = []
        start = 0
        while True:
            end = data.find(0, start)
            if end < 0:
                self._append(data[start:])
                return out
            self._append(data[start:end])
            if self._overlong:
                self._overlong = False
            elif self._buf:
                item = self._decode(bytes(self._buf))
                if item is not None:
                    out.append(item)
            self._buf.clear()
            start = end + 1

    def _append(self, chunk: bytes) -> None:
        if self._overlong:
            self.bytes_dropped += len(chunk)
            return
        self._buf += chunk
        if len(self._buf) > self.max_frame:
            self.corrupt += 1
            self.bytes_dropped += len(self._buf)
            self._buf.clear()
            self._overlong = True

    def _decode(self, run: bytes) -> tuple[int, Message] | None:
        body = cobs_decode(run)
        if body is None or len(body) < 6 or crc16(body[:-2]) != (body[-2] << 8 | body[-1]):
            self.corrupt += 1
            self.bytes_dropped += len(run)
            return None
        version, mtype, seq = struct.unpack_from(">BBH", body)
        cls = MESSAGE_TYPES.get(mtype)
        try:
            if version != PROTOCOL_VERSION:
                self.wrong_version += 1
                raise ValueError("wrong protocol version")
            if cls is None:
                raise ValueError("unknown type")
            msg = cls.parse(body[4:-2])
        except (ValueError, KeyError, IndexError, UnicodeDecodeError, struct.error):
            self.invalid += 1
            self.bytes_dropped += len(run)
            return None
        self.frames += 1
        return seq, msg
