"""One scripted run of the firmware, printed as the hex of every byte it sends (one frame a line).

Runs unchanged under CPython and under MicroPython (``run.mjs``): only ``arbitro_fw`` is
imported, and the hardware (the ``machine`` module the Pico passes in) is replaced by the small
board below: a 74HC165 chain latched on SH/LD low and read by SPI, CD74HC4067 multiplexers with
active-low enables and S0..S3, one ADC. The same scans and the same host frames go in on both
interpreters, so ``tests/firmware_bridge/test_micropython.py`` compares the outputs byte for byte.
Hence MicroPython's syntax here too: no annotations, no f-strings.
"""

import arbitro_fw as fw

BLOCKS = [("presence", 20), ("count", 18), ("piece", 3)]  # 21 analog inputs: two multiplexers


class Board:
    """What the sensors see: chain bits by presence index, ADC readings by analog input."""

    def __init__(self, config):
        self.config = config
        self.chain = bytearray([0xFF] * 3)  # active low: nothing present
        self.latched = bytes(self.chain)
        self.readings = [0] * 21
        self.levels = {}

    def present(self, k, on):
        mask = 0x80 >> (k % 8)
        if on:
            self.chain[k // 8] &= ~mask & 0xFF
        else:
            self.chain[k // 8] |= mask

    def read(self, j, reading):
        self.readings[j] = reading

    def selected(self):
        cfg = self.config
        enabled = [i for i, p in enumerate(cfg["mux_enable_pins"][:2]) if self.levels.get(p, 1) == 0]
        if len(enabled) != 1:
            return None
        sel = 0
        for b, p in enumerate(cfg["mux_select_pins"]):
            sel |= self.levels.get(p, 0) << b
        return enabled[0] * 16 + sel


class Machine:
    """The ``machine`` module's Pin, SPI, ADC and WDT, bound to one Board."""

    def __init__(self, board):
        machine = self

        class Pin:
            IN = 0
            OUT = 1

            def __init__(self, pin_id, mode=-1, pull=-1, value=None):
                self.id = pin_id
                if value is not None:
                    self.value(value)

            def value(self, v=None):
                if v is None:
                    return board.levels.get(self.id, 0)
                if self.id == board.config["sr_load_pin"] and v == 0 and board.levels.get(self.id, 1) == 1:
                    board.latched = bytes(board.chain)
                board.levels[self.id] = v
                return v

        class SPI:
            def __init__(self, spi_id, **kwargs):
                self.id = spi_id

            def readinto(self, buf):
                for i in range(len(buf)):
                    buf[i] = board.latched[i]

        class ADC:
            def __init__(self, pin):
                self.pin = pin

            def read_u16(self):
                j = board.selected()
                return 0xFFFF if j is None or j >= len(board.readings) else board.readings[j]

        class WDT:
            def __init__(self, id=0, timeout=5000):
                machine.feeds = 0

            def feed(self):
                machine.feeds += 1

        self.Pin = Pin
        self.SPI = SPI
        self.ADC = ADC
        self.WDT = WDT
        self.feeds = 0


class Clock:
    """MicroPython's ``time.ticks_*``, moved by hand (wrapping at 2**30 as on the RP2040)."""

    PERIOD = 1 << 30

    def __init__(self):
        self.us = 0

    def ticks_ms(self):
        return (self.us // 1000) % self.PERIOD

    def ticks_us(self):
        return self.us % self.PERIOD

    def ticks_add(self, t, d):
        return (t + d) % self.PERIOD

    def ticks_diff(self, a, b):
        half = self.PERIOD // 2
        return ((a - b + half) % self.PERIOD) - half

    def sleep_us(self, us):
        self.us += us


class Port:
    """The USB serial: ``inbox`` from the host; every write printed as one line of hex."""

    def __init__(self):
        self.inbox = bytearray()

    def read(self):
        data = bytes(self.inbox)
        self.inbox = bytearray()
        return data

    def write(self, data):
        print("".join("%02x" % b for b in data))  # noqa: UP031  # as MicroPython prints it


def main():
    config = fw.default_config(BLOCKS, "scenario", 1000, 3, 50)
    config["analog_cal"] = [([10000, 20000, 30000], [0, 1, 2, 5])]  # analog input 0 calibrated
    config["watchdog_ms"] = 2000
    board = Board(config)
    machine = Machine(board)
    clock = Clock()
    port = Port()
    firmware = fw.Firmware(config, machine, clock, port)
    firmware.send_hello()
    host = {
        10: fw.frame(fw.T_REQUEST_SNAPSHOT, 1, b""),
        15: fw.frame(fw.T_CONFIGURE, 2, b"\x00\x00\x07\xd0\x02\x00\x64"),  # 2 ms scans, debounce 2, heartbeat 100
        20: fw.frame(fw.T_REQUEST_HELLO, 3, b"")[:-3] + b"\x01\x02\x00",  # CRC broken
        21: fw.frame(0x7E, 4, b""),  # an unknown type
        22: fw.frame(fw.T_CONFIGURE, 5, b"\x00\x00\x00\x01\x00\x00\x00"),  # refused: 1 us scans
        25: fw.frame(fw.T_SET_RAW, 6, b"\x01"),
        30: fw.frame(fw.T_SET_RAW, 7, b"\x00"),
        35: b"\x00" + b"\x55" * 80 + b"\x00",  # a run too long for a frame
        40: fw.frame(fw.T_REQUEST_HELLO, 8, b""),
    }
    sensors = {
        2: lambda: (board.present(0, True), board.present(13, True)),
        3: lambda: board.present(5, True),  # a bounce: back before the debounce is over
        4: lambda: board.present(5, False),
        6: lambda: board.read(1, 5 * 1024),
        7: lambda: board.read(0, 25000),  # calibrated: band 2
        8: lambda: board.read(20, 65535),  # full scale quantizes to 63
        12: lambda: board.present(19, True),
        27: lambda: board.read(17, 40000),  # in raw mode: 40000 >> 8
        45: lambda: (board.present(0, False), board.read(1, 2 * 1024 + 300)),
    }
    for scan in range(200):
        if scan in host:
            port.inbox.extend(host[scan])
        if scan in sensors:
            sensors[scan]()
        clock.sleep_us(firmware.scan_us)
        firmware.step()
    print("scans", firmware.scans, "feeds", machine.feeds, "overruns", firmware.overruns)


main()
