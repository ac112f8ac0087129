"""arbitro sensor firmware for the Raspberry Pi Pico (RP2040), MicroPython.

Copy this file, ``main.py`` and a ``board_config.py`` generated from the board's layout to the
Pico (``arbitro firmware flash --layout FILE`` does both). The same file runs unchanged on CPython in tests and
in ``arbitro sim``: everything that touches hardware comes in through ``Firmware(config, machine,
clock, port)`` -- on the Pico the real ``machine`` and ``time`` modules and ``UsbCdcPort()``; on
CPython ``firmware_bridge.sim_machine``'s doubles. Hence MicroPython-only syntax rules here: no
f-strings, no type annotations, no dataclasses, no ``binascii.crc_hqx`` (CRC below in plain code).

What it does, every ``scan_us`` microseconds (``step``):

1. Reads whatever the host sent (COBS frames; REQUEST_HELLO, REQUEST_SNAPSHOT, CONFIGURE).
2. Scans the sensors: pulses the 74HC165 chain's SH/LD pin low and reads the chain with SPI
   (presence channel k = bit ``7 - k % 8`` of byte ``k // 8``, i.e. the first bit shifted out is
   presence channel 0; hall switches pull low when a magnet is present unless
   ``presence_active_low`` is False), then walks the CD74HC4067 analog multiplexers (analog input
   j = mux ``j // 16`` selected by its active-low enable pin, input ``j % 16`` on S0..S3, all
   multiplexer outputs wired to one ADC pin) and turns each reading into a value: through the
   input's calibration (``analog_cal``: ascending thresholds on ``read_u16()`` and the value of
   each band, recorded by ``arbitro calibrate``) when it has one, else ``(read_u16() + 512) >> 10``
   (0..63; one level per 1024 counts). In raw mode (SET_RAW, for calibrating) every analog
   channel reports ``read_u16() >> 8`` (0..255) instead.
3. Debounces: a channel whose raw value differs from its reported (stable) value is reported
   with a CHANGED frame once it has read the same new value on ``debounce_scans`` consecutive
   scans (1 = report at once); a bounce back to the stable value cancels it.
4. Sends a HEARTBEAT if no frame has gone out for ``heartbeat_ms``.

Presence channels take the shift-register bits in block order; COUNT and PIECE channels take
the analog inputs in block order. The wire format is ``docs/protocol.md``; this file and
``firmware_bridge/protocol.py`` encode identically (tests check it).
"""

import struct

FIRMWARE_VERSION = "arbitro-fw 0.1.0"
PROTOCOL_VERSION = 1

T_HELLO = 0x01
T_SNAPSHOT = 0x02
T_CHANGED = 0x03
T_HEARTBEAT = 0x04
T_ERROR = 0x05
T_REQUEST_SNAPSHOT = 0x10
T_CONFIGURE = 0x11
T_REQUEST_HELLO = 0x12
T_SET_RAW = 0x13
T_STOP = 0x14

ERR_BAD_FRAME = 1
ERR_UNKNOWN_TYPE = 2
ERR_BAD_CONFIG = 3

KIND_CODES = {"presence": 1, "count": 2, "piece": 3}
SNAPSHOT_PART_MAX = 240
RX_MAX = 64

# The reference board's Pico pin plan (GPIO numbers).
SR_SPI_ID = 1
SR_SCK_PIN = 10
SR_MISO_PIN = 12
SR_LOAD_PIN = 13
MUX_SELECT_PINS = (2, 3, 4, 5)
MUX_ENABLE_PINS = (6, 7, 8, 9, 14, 15, 16, 17, 18, 19, 20, 21, 22)
ADC_PIN = 26


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): equals CPython's binascii.crc_hqx(data, 0xFFFF)."""
    table = _CRC_TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ b) & 0xFF]
    return crc


def cobs_encode(data):
    """COBS-encode bytes (same output as firmware_bridge.protocol.cobs_encode)."""
    out = bytearray()
    code_pos = 0
    out.append(0)
    code = 1
    for b in data:
        if b == 0:
            out[code_pos] = code
            code_pos = len(out)
            out.append(0)
            code = 1
        else:
            out.append(b)
            code += 1
            if code == 255:
                out[code_pos] = code
                code_pos = len(out)
                out.append(0)
                code = 1
    out[code_pos] = code
    return bytes(out)


def cobs_decode(data):
    """Decode COBS bytes (no delimiters); None if malformed."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        out.extend(data[i + 1 : end])
        i = end
        if code < 255 and i < n:
            out.append(0)
    return bytes(out)


def frame(mtype, seq, payload):
    """A complete delimited frame: 0x00 COBS(version type seq payload crc) 0x00."""
    body = bytearray(struct.pack(">BBH", PROTOCOL_VERSION, mtype, seq & 0xFFFF))
    body.extend(payload)
    body.extend(struct.pack(">H", crc16(body)))
    return b"\x00" + cobs_encode(body) + b"\x00"


def default_config(blocks, board_kind="generic", scan_us=1000, debounce_scans=3, heartbeat_ms=250):
    """A firmware config for the reference board's pin plan with the given channel blocks.

    ``blocks`` is a list of (kind, count) with kind "presence", "count" or "piece".
    """
    return {
        "config_id": "",
        "analog_cal": [],
        "board_kind": board_kind,
        "blocks": [(kind, int(count)) for kind, count in blocks],
        "scan_us": scan_us,
        "debounce_scans": debounce_scans,
        "heartbeat_ms": heartbeat_ms,
        "presence_active_low": True,
        "sr_spi_id": SR_SPI_ID,
        "sr_sck_pin": SR_SCK_PIN,
        "sr_miso_pin": SR_MISO_PIN,
        "sr_load_pin": SR_LOAD_PIN,
        "sr_baudrate": 4000000,
        "mux_select_pins": MUX_SELECT_PINS,
        "mux_enable_pins": MUX_ENABLE_PINS,
        "adc_pin": ADC_PIN,
        "watchdog_ms": 0,
    }


def config_from(module):
    """The firmware config a generated ``board_config`` module describes (``arbitro firmware flash``).

    Its names: BOARD_KIND, BLOCKS, SCAN_US, DEBOUNCE_SCANS, HEARTBEAT_MS, WATCHDOG_MS, CONFIG_ID,
    ANALOG_CAL, and optionally PINS (a dict overriding the reference pin plan's entries).
    """
    config = default_config(module.BLOCKS, module.BOARD_KIND, module.SCAN_US, module.DEBOUNCE_SCANS,
                            module.HEARTBEAT_MS)
    config["watchdog_ms"] = module.WATCHDOG_MS
    config["config_id"] = module.CONFIG_ID
    config["analog_cal"] = list(module.ANALOG_CAL)
    config.update(getattr(module, "PINS", {}))
    return config


def calibrated(raw, cal):
    """The value of an ADC reading ``raw`` (0..65535) under ``cal`` = (thresholds, values): the value
    of the band ``raw`` falls in; thresholds ascend, values has one more entry than thresholds."""
    thresholds, values = cal
    i = 0
    n = len(thresholds)
    while i < n and raw >= thresholds[i]:
        i += 1
    return values[i]


class UsbCdcPort:
    """The Pico's USB CDC serial (sys.stdin/stdout), read without blocking. MicroPython only."""

    def __init__(self):
        import select
        import sys

        import micropython

        micropython.kbd_intr(-1)  # a 0x03 byte inside a frame must not raise KeyboardInterrupt
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self):
        """Up to RX_MAX bytes already received, or b""."""
        data = bytearray()
        while len(data) < RX_MAX and self._poll.poll(0):
            data.extend(self._in.read(1))
        return bytes(data)

    def write(self, data):
        """Send bytes to the host."""
        self._out.write(data)


class Firmware:
    """The scan / debounce / report loop. ``step()`` is one scan period's work; ``run()`` loops it.

    ``config``: see ``default_config``. ``machine``: provides Pin, SPI, ADC (and WDT if
    ``watchdog_ms``). ``clock``: provides ticks_ms, ticks_us, ticks_add, ticks_diff, sleep_us
    (MicroPython's ``time``). ``port``: ``read()`` -> bytes received so far (never blocks),
    ``write(bytes)``.
    """

    def __init__(self, config, machine, clock, port):
        self.config = config
        self.clock = clock
        self.port = port
        self.board_kind = config["board_kind"]
        self.blocks = [(kind, int(count)) for kind, count in config["blocks"]]
        self.scan_us = int(config["scan_us"])
        self.debounce = int(config["debounce_scans"])
        self.heartbeat_ms = int(config["heartbeat_ms"])
        self.active_low = config.get("presence_active_low", True)
        self.presence_ch = []  # type: list[int]
        self.analog_ch = []  # type: list[int]
        channel = 0
        for kind, count in self.blocks:
            if kind not in KIND_CODES:
                raise ValueError("unknown channel kind " + repr(kind))
            target = self.presence_ch if kind == "presence" else self.analog_ch
            for _ in range(count):
                target.append(channel)
                channel += 1
        self.n = channel
        self.n_presence = len(self.presence_ch)
        self.n_analog = len(self.analog_ch)
        self.raw = bytearray(self.n)
        self.stable = bytearray(self.n)
        self.count = bytearray(self.n)
        self.pending = set()  # type: set[int]
        self.sr_buf = bytearray((self.n_presence + 7) // 8)
        self.sr_prev = bytearray(len(self.sr_buf))
        self.tx_seq = 0
        self.snapshot_id = 0
        self.scans = 0
        self.overruns = 0
        self.rx = bytearray()
        # Until the first delimiter: what is on the line then was sent before this boot (the REPL
        # traffic mpremote leaves after its reset), not a frame cut short; no ERROR for it.
        self.rx_skip = True
        self.running = True
        self.raw_mode = False
        self.config_id = config.get("config_id", "")
        cal = list(config.get("analog_cal", []))
        self.cal = [cal[j] if j < len(cal) else None for j in range(self.n_analog)]
        self._setup(machine)
        self.uptime_ms = 0
        self._last_ms = clock.ticks_ms()
        self.last_tx_ms = 0
        # Boot: the first scan is the stable state, with nothing to report.
        self.sr_prev[:] = bytes([0xFF if self.active_low else 0]) * len(self.sr_prev)
        self.read_sensors()
        self.stable[:] = self.raw
        self.pending = set()

    def _setup(self, machine):
        cfg = self.config
        Pin = machine.Pin
        if self.n_presence:
            self.load = Pin(cfg["sr_load_pin"], Pin.OUT, value=1)
            self.spi = machine.SPI(
                cfg["sr_spi_id"],
                baudrate=cfg["sr_baudrate"],
                polarity=0,
                phase=0,
                sck=Pin(cfg["sr_sck_pin"]),
                miso=Pin(cfg["sr_miso_pin"]),
            )
        muxes = (self.n_analog + 15) // 16
        if muxes > len(cfg["mux_enable_pins"]):
            raise ValueError(str(self.n_analog) + " analog channels need " + str(muxes) + " multiplexers")
        self.select = [Pin(p, Pin.OUT, value=0) for p in cfg["mux_select_pins"]]
        self.enable = [Pin(p, Pin.OUT, value=1) for p in cfg["mux_enable_pins"][:muxes]]
        self.adc = machine.ADC(Pin(cfg["adc_pin"])) if muxes else None
        self.cur_mux = -1
        self.cur_sel = 0
        wdt_ms = cfg.get("watchdog_ms", 0)
        self.wdt = machine.WDT(timeout=wdt_ms) if wdt_ms else None

    # -- scanning ---------------------------------------------------------------------------

    def scan(self):
        """Read every sensor once, debounce, and send CHANGED for every channel that settled."""
        self.read_sensors()
        pending = self.pending
        if pending:
            raw = self.raw
            count = self.count
            stable = self.stable
            for ch in list(pending):
                value = raw[ch]
                if value == stable[ch]:
                    pending.discard(ch)
                    continue
                c = count[ch] + 1
                if c >= self.debounce:
                    stable[ch] = value
                    pending.discard(ch)
                    self.send(T_CHANGED, struct.pack(">HBI", ch, value, self.uptime_ms & 0xFFFFFFFF))
                else:
                    count[ch] = c
        self.scans += 1

    def read_sensors(self):
        """Read the shift-register chain and the multiplexed ADC into ``raw``; mark changed channels pending."""
        raw = self.raw
        count = self.count
        pending = self.pending
        if self.n_presence:
            self.load.value(0)
            self.load.value(1)
            buf = self.sr_buf
            self.spi.readinto(buf)
            prev = self.sr_prev
            if buf != prev:
                flip = 1 if self.active_low else 0
                for i in range(len(buf)):
                    diff = buf[i] ^ prev[i]
                    if diff:
                        for bit in range(8):
                            mask = 0x80 >> bit
                            k = i * 8 + bit
                            if diff & mask and k < self.n_presence:
                                ch = self.presence_ch[k]
                                raw[ch] = (1 if buf[i] & mask else 0) ^ flip
                                count[ch] = 0
                                pending.add(ch)
                        prev[i] = buf[i]
        adc = self.adc
        if adc is not None:  # there are analog channels
            select = self.select
            enable = self.enable
            for j in range(self.n_analog):
                mux = j >> 4
                sel = j & 15
                if mux != self.cur_mux:
                    if self.cur_mux >= 0:
                        enable[self.cur_mux].value(1)
                    enable[mux].value(0)
                    self.cur_mux = mux
                flip = sel ^ self.cur_sel
                if flip:
                    for b in range(4):
                        if (flip >> b) & 1:
                            select[b].value((sel >> b) & 1)
                    self.cur_sel = sel
                reading = adc.read_u16()
                if self.raw_mode:
                    value = reading >> 8
                elif self.cal[j] is not None:
                    value = calibrated(reading, self.cal[j])
                else:
                    value = min(63, (reading + 512) >> 10)  # a full-scale reading would round to 64
                ch = self.analog_ch[j]
                if value != raw[ch]:
                    raw[ch] = value
                    count[ch] = 0
                    pending.add(ch)

    # -- host link --------------------------------------------------------------------------

    def send(self, mtype, payload):
        """Frame and write one message, advancing the sequence number."""
        self.port.write(frame(mtype, self.tx_seq, payload))
        self.tx_seq = (self.tx_seq + 1) & 0xFFFF
        self.last_tx_ms = self.uptime_ms

    def send_hello(self):
        """HELLO with the channel blocks and the settings in force."""
        kind = self.board_kind.encode()
        # The config id ties the firmware to the layout it was generated from (the host checks it).
        fw = (FIRMWARE_VERSION + (" cfg " + self.config_id if self.config_id else "")).encode()
        out = bytearray([PROTOCOL_VERSION, len(kind)])
        out.extend(kind)
        out.append(len(fw))
        out.extend(fw)
        out.extend(struct.pack(">IBHB", self.scan_us, self.debounce, self.heartbeat_ms, len(self.blocks)))
        for k, c in self.blocks:
            out.extend(struct.pack(">BH", KIND_CODES[k], c))
        self.send(T_HELLO, out)

    def send_snapshot(self):
        """Every channel's stable value, in parts of SNAPSHOT_PART_MAX values, back to back."""
        values = bytes(self.stable)
        parts = max(1, (self.n + SNAPSHOT_PART_MAX - 1) // SNAPSHOT_PART_MAX)
        sid = self.snapshot_id
        self.snapshot_id = (sid + 1) & 0xFFFF
        for part in range(parts):
            first = part * SNAPSHOT_PART_MAX
            head = struct.pack(">HBBHH", sid, part, parts, first, self.n)
            self.send(T_SNAPSHOT, head + values[first : first + SNAPSHOT_PART_MAX])

    def send_error(self, code, message):
        """ERROR with a short text."""
        text = message.encode()[:255]
        self.send(T_ERROR, bytes([code, len(text)]) + text)

    def poll_host(self):
        """Read and act on whatever the host has sent."""
        data = self.port.read()
        for b in data:
            if b == 0:
                if self.rx and not self.rx_skip:
                    self.handle_frame(bytes(self.rx))
                self.rx = bytearray()
                self.rx_skip = False
            elif not self.rx_skip:
                self.rx.append(b)
                if len(self.rx) > RX_MAX:
                    self.rx_skip = True
                    self.send_error(ERR_BAD_FRAME, "frame too long")

    def handle_frame(self, run):
        """Decode one COBS run from the host and execute it."""
        body = cobs_decode(run)
        if body is None or len(body) < 6 or crc16(body[:-2]) != (body[-2] << 8 | body[-1]):
            self.send_error(ERR_BAD_FRAME, "bad frame")
            return
        version = body[0]
        mtype = body[1]
        payload = body[4:-2]
        if version != PROTOCOL_VERSION:
            self.send_error(ERR_UNKNOWN_TYPE, "protocol version " + str(version))
        elif mtype == T_REQUEST_SNAPSHOT:
            self.send_snapshot()
        elif mtype == T_REQUEST_HELLO:
            self.send_hello()
        elif mtype == T_CONFIGURE and len(payload) == 7:
            scan_us, debounce, heartbeat = struct.unpack(">IBH", payload)
            if not (100 <= scan_us <= 1000000 and debounce >= 1):
                self.send_error(ERR_BAD_CONFIG, "scan_us 100..1000000, debounce_scans 1..255")
                return
            self.scan_us = scan_us
            self.debounce = debounce
            if heartbeat:
                self.heartbeat_ms = heartbeat
            self.send_hello()
        elif mtype == T_SET_RAW and len(payload) == 1:
            # Calibration reads the ADC itself; HELLO makes the host take a fresh snapshot.
            self.raw_mode = payload[0] != 0
            self.read_sensors()  # the next snapshot already in the new mode's units
            self.stable[:] = self.raw
            self.pending = set()
            self.send_hello()
        elif mtype == T_STOP:
            self.running = False  # main.py returns to the REPL, so mpremote can write new files
        else:
            self.send_error(ERR_UNKNOWN_TYPE, "type " + str(mtype))

    # -- main loop --------------------------------------------------------------------------

    def step(self):
        """One scan period: host commands, uptime, scan, heartbeat, watchdog."""
        self.poll_host()
        now = self.clock.ticks_ms()
        self.uptime_ms += self.clock.ticks_diff(now, self._last_ms)
        self._last_ms = now
        self.scan()
        if self.uptime_ms - self.last_tx_ms >= self.heartbeat_ms:
            self.send(T_HEARTBEAT, struct.pack(">II", self.uptime_ms & 0xFFFFFFFF, self.scans & 0xFFFFFFFF))
        if self.wdt is not None:
            self.wdt.feed()

    def run(self):
        """Send HELLO, then ``step()`` every ``scan_us`` until ``self.running`` is cleared."""
        clock = self.clock
        self.send_hello()
        deadline = clock.ticks_us()
        while self.running:
            self.step()
            deadline = clock.ticks_add(deadline, self.scan_us)
            wait = clock.ticks_diff(deadline, clock.ticks_us())
            if wait > 0:
                clock.sleep_us(wait)
            else:
                self.overruns += 1
                deadline = clock.ticks_us()
