"""The wire protocol: round trips, byte-level vectors, and a decoder that survives any input."""

from __future__ import annotations

import binascii
import os
import re
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as P

MESSAGES: list[P.Message] = [
    P.Hello(1, "jeocinco", "arbitro-fw 0.1.0", (("presence", 283), ("presence", 100)), 1000, 3, 250),
    P.Hello(1, "", "", ()),
    P.SnapshotPart(7, 0, 2, 0, 300, bytes(range(240))),
    P.SnapshotPart(7, 1, 2, 240, 300, bytes(60)),
    P.SnapshotPart(0, 0, 1, 0, 0, b""),
    P.Changed(282, 1, 123456),
    P.Changed(0, 0, 0xFFFFFFFF),
    P.Heartbeat(99, 12345),
    P.Error(P.ERR_BAD_FRAME, "bad frame"),
    P.RequestSnapshot(),
    P.Configure(2000, 5, 500),
    P.RequestHello(),
    P.SetRaw(1),
    P.Stop(),
]


@pytest.mark.parametrize("msg", MESSAGES, ids=lambda m: type(m).__name__)
def test_every_message_round_trips(msg: P.Message) -> None:
    frame = P.encode(msg, 0xBEEF)
    assert frame[0] == 0 and frame[-1] == 0 and 0 not in frame[1:-1]
    dec = P.Decoder()
    assert dec.feed(frame) == [(0xBEEF, msg)]
    assert (dec.frames, dec.corrupt, dec.invalid) == (1, 0, 0)


def test_every_message_type_is_covered() -> None:
    assert {type(m) for m in MESSAGES} == set(P.MESSAGE_TYPES.values())


def test_crc_is_ccitt_false() -> None:
    assert P.crc16(b"123456789") == 0x29B1 == binascii.crc_hqx(b"123456789", 0xFFFF)


@pytest.mark.parametrize(
    ("raw", "cobs"),
    [
        (b"", b"\x01"),
        (b"\x00", b"\x01\x01"),
        (b"\x00\x00", b"\x01\x01\x01"),
        (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
        (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
        (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255)) + b"\x01"),
        (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
    ],
)
def test_cobs_vectors(raw: bytes, cobs: bytes) -> None:
    assert P.cobs_encode(raw) == cobs
    assert P.cobs_decode(cobs) == raw


def test_documented_changed_frame() -> None:
    """The CHANGED example in docs/protocol.md, byte for byte."""
    frame = P.encode(P.Changed(channel=5, value=1, mcu_ms=1000), seq=3)
    assert frame.hex(" ") == "00 03 01 03 02 03 03 05 01 01 05 03 e8 b5 d9 00"
    body = bytes.fromhex("01 03 00 03 00 05 01 00 00 03 e8")
    assert binascii.crc_hqx(body, 0xFFFF) == 0xB5D9


def test_documented_request_snapshot_frame() -> None:
    assert P.encode(P.RequestSnapshot(), seq=0).hex(" ") == "00 03 01 10 01 03 b1 17 00"


def test_split_snapshot() -> None:
    values = [i % 2 for i in range(481)]
    parts = P.split_snapshot(values, 9)
    assert [(p.part, p.parts, p.first, len(p.values)) for p in parts] == [
        (0, 3, 0, 240),
        (1, 3, 240, 240),
        (2, 3, 480, 1),
    ]
    assert b"".join(p.values for p in parts) == bytes(values)
    assert all(len(P.encode(p, 0)) < P.MAX_FRAME for p in parts)
    assert P.split_snapshot([], 1) == [P.SnapshotPart(1, 0, 1, 0, 0, b"")]


def test_piece_codes() -> None:
    assert [P.piece_code(0), P.piece_code(0, True), P.piece_code(1), P.piece_code(3, True)] == [1, 2, 3, 8]
    assert P.piece_of(0) is None
    assert all(P.piece_of(P.piece_code(p, d)) == (p, d) for p in range(127) for d in (False, True))
    with pytest.raises(ValueError):
        P.piece_code(127)


def test_hello_kinds() -> None:
    hello = P.Hello(1, "contigo", "x", (("piece", 2), ("count", 1), ("presence", 1)))
    assert hello.channels == 4
    assert hello.kinds() == ["piece", "piece", "count", "presence"]


def test_decoder_counts_and_resyncs() -> None:
    dec = P.Decoder()
    good = P.encode(P.Changed(1, 1, 1), 1)
    bad = bytearray(P.encode(P.Changed(2, 1, 2), 2))
    bad[5] ^= 0x10
    out = dec.feed(b"junk" + bytes(bad) + good[:5])
    assert out == []
    assert dec.feed(good[5:]) == [(1, P.Changed(1, 1, 1))]
    assert dec.corrupt == 2  # "junk" + the leading delimiter, and the flipped frame
    assert dec.frames == 1


def test_decoder_drops_overlong_runs() -> None:
    dec = P.Decoder(max_frame=50)
    assert dec.feed(b"\x05" * 200) == []
    assert dec.feed(b"\x05" * 200 + P.encode(P.Heartbeat(1, 2), 4)) == [(4, P.Heartbeat(1, 2))]
    assert dec.corrupt == 1 and dec.bytes_dropped == 400


def _frame_with(version: int, mtype: int, payload: bytes) -> bytes:
    body = struct.pack(">BBH", version, mtype, 0) + payload
    return b"\x00" + P.cobs_encode(body + struct.pack(">H", P.crc16(body))) + b"\x00"


def test_decoder_counts_invalid_frames() -> None:
    dec = P.Decoder()
    assert dec.feed(_frame_with(2, P.Changed.TYPE, bytes(7))) == []
    assert dec.feed(_frame_with(1, 0x7F, b"")) == []
    assert dec.feed(_frame_with(1, P.Changed.TYPE, bytes(6))) == []
    assert dec.feed(_frame_with(1, P.Hello.TYPE, b"\x01\x09ab")) == []
    assert dec.feed(_frame_with(1, P.RequestHello.TYPE, b"x")) == []
    assert (dec.invalid, dec.wrong_version, dec.corrupt, dec.frames) == (5, 1, 0, 0)


# -- property tests ---------------------------------------------------------------------------

u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFFFFFF)
text = st.text(max_size=20).filter(lambda s: len(s.encode()) <= 255)


@st.composite
def snapshot_parts(draw: st.DrawFn) -> P.SnapshotPart:
    parts = draw(st.integers(1, 4))
    part = draw(st.integers(0, parts - 1))
    values = draw(st.binary(max_size=240))
    first = draw(st.integers(0, 1000))
    total = first + len(values) + draw(st.integers(0, 100))
    return P.SnapshotPart(draw(u16), part, parts, first, total, values)


messages = st.one_of(
    st.builds(
        P.Hello,
        st.integers(0, 255),
        text,
        text,
        st.lists(st.tuples(st.sampled_from([P.PRESENCE, P.COUNT, P.PIECE]), u16), max_size=8).map(tuple),
        u32,
        st.integers(0, 255),
        u16,
    ),
    snapshot_parts(),
    st.builds(P.Changed, u16, st.integers(0, 255), u32),
    st.builds(P.Heartbeat, u32, u32),
    st.builds(P.Error, st.integers(0, 255), text),
    st.just(P.RequestSnapshot()),
    st.builds(P.Configure, u32, st.integers(0, 255), u16),
    st.just(P.RequestHello()),
)


@given(messages, u16)
def test_any_message_round_trips(msg: P.Message, seq: int) -> None:
    assert P.Decoder().feed(P.encode(msg, seq)) == [(seq, msg)]


def _valid_bodies(data: bytes) -> list[bytes]:
    """Independently of Decoder: the CRC-checked bodies (CRC stripped) of every run in ``data``."""
    bodies = []
    for run in data.split(b"\x00"):
        body = P.cobs_decode(run) if run else None
        if body is not None and len(body) >= 6 and binascii.crc_hqx(body[:-2], 0xFFFF) == int.from_bytes(body[-2:]):
            bodies.append(body[:-2])
    return bodies


def _body_of(seq: int, msg: P.Message) -> bytes:
    return struct.pack(">BBH", P.PROTOCOL_VERSION, msg.TYPE, seq) + msg.payload()


@given(st.binary(max_size=2000), st.lists(st.integers(1, 64), max_size=20))
def test_decoder_never_raises_and_yields_only_crc_checked_frames(data: bytes, cuts: list[int]) -> None:
    dec = P.Decoder()
    out, pos = [], 0
    for n in [*cuts, len(data)]:
        out += dec.feed(data[pos : pos + n])
        pos += n
    out += dec.feed(data[pos:])
    valid = iter(_valid_bodies(data + b"\x00"))
    for seq, msg in out:  # each yielded frame is, in order, one whose CRC checked
        assert any(body == _body_of(seq, msg) for body in valid)
    # and after any garbage, the next valid frame comes through
    assert dec.feed(P.encode(P.Heartbeat(1, 2), 77)) == [(77, P.Heartbeat(1, 2))]


# FB_EXAMPLES=4000 for a longer search (passes; about 10 s).
@settings(max_examples=int(os.environ.get("FB_EXAMPLES", 200)), deadline=None)
@given(
    st.lists(
        st.tuples(
            messages,
            u16,
            st.sampled_from(["keep", "keep", "truncate", "flip", "garbage"]),
            st.integers(0, 10_000),
            st.binary(min_size=1, max_size=30),
        ),
        max_size=12,
    ),
    st.integers(1, 97),
)
def test_decoder_recovers_every_intact_frame(frames: list[tuple[P.Message, int, str, int, bytes]], chunk: int) -> None:
    """Truncated and bit-flipped frames are lost alone; garbage before a frame costs nothing."""
    stream = bytearray()
    expected = []
    for msg, seq, fate, where, garbage in frames:
        frame = P.encode(msg, seq)
        if fate == "truncate":
            frame = frame[: 1 + where % (len(frame) - 2)]  # loses at least one content byte
        elif fate == "flip":
            i = 1 + where % (len(frame) - 2)
            frame = frame[:i] + bytes([frame[i] ^ (1 << (where % 8))]) + frame[i + 1 :]
        elif fate == "garbage":
            stream += garbage
        if fate in ("keep", "garbage"):
            expected.append((seq, msg))
        stream += frame
    dec = P.Decoder()
    out = []
    for i in range(0, len(stream), chunk):
        out += dec.feed(bytes(stream[i : i + chunk]))
    assert out == expected


def test_every_example_in_docs_protocol_md() -> None:
    """Each ``Message(...), seq N`` block in docs/protocol.md encodes to the hex line under it."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    examples = re.findall(r"^(\w+\(.*\)), seq (\d+)\n([0-9a-f ]+)$", doc, re.MULTILINE)
    assert len(examples) >= 8
    for source, seq, hexline in examples:
        msg = eval(source, vars(P))
        assert P.encode(msg, int(seq)).hex(" ") == hexline, source
        assert P.Decoder().feed(bytes.fromhex(hexline)) == [(int(seq), msg)]
