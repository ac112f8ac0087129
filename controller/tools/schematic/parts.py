"""The parts of the reference boards: pinouts, KiCad footprints and part numbers, as data.

SKiDL templates are made from these (``circuit.template``) with SKiDL's own part definitions
(tool ``SKIDL``), so no KiCad symbol library needs installing. Pin numbers are the packages' own
(datasheets); footprints name KiCad's standard footprint libraries, for a PCB tool to place.
"""

from __future__ import annotations

from dataclasses import dataclass

# SKiDL's electrical pin types, by their names in skidl.Pin.types.
IN, OUT, BIDIR, PASSIVE, PWRIN, PWROUT, OPENCOLL = "INPUT", "OUTPUT", "BIDIR", "PASSIVE", "PWRIN", "PWROUT", "OPENCOLL"


@dataclass(frozen=True)
class PartSpec:
    name: str
    ref_prefix: str
    footprint: str
    mpn: str  # a manufacturer part number that fits (any equivalent will do)
    description: str
    pins: tuple[tuple[int, str, str], ...]  # (number, name, SKiDL pin type)

    def num(self, pin_name: str) -> int:
        """The number of the pin called ``pin_name``."""
        for n, name, _ in self.pins:
            if name == pin_name:
                return n
        raise KeyError(f"{self.name} has no pin {pin_name}")


def _pico_pins() -> tuple[tuple[int, str, str], ...]:
    """The Pico's 40 pads: GP0..GP22 and GP26..GP28 between GND pads (Pico datasheet, pinout)."""
    gp = [0, 1, None, 2, 3, 4, 5, None, 6, 7, 8, 9, None, 10, 11, 12, 13, None, 14, 15,
          16, 17, None, 18, 19, 20, 21, None, 22]
    pins: list[tuple[int, str, str]] = []
    for pad, g in enumerate(gp, 1):
        pins.append((pad, f"GP{g}", BIDIR) if g is not None else (pad, "GND", PWRIN))
    pins += [(30, "RUN", IN), (31, "GP26", BIDIR), (32, "GP27", BIDIR), (33, "AGND", PWRIN), (34, "GP28", BIDIR),
             (35, "ADC_VREF", PASSIVE), (36, "3V3", PWROUT), (37, "3V3_EN", IN), (38, "GND", PWRIN),
             (39, "VSYS", PASSIVE), (40, "VBUS", PWROUT)]
    return tuple(pins)


PI_GPIO_PAD = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31, 13: 33,
               19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 1: 28, 12: 32,
               16: 36, 20: 38, 21: 40}
"""The Raspberry Pi's 40-pin header: BCM GPIO number -> header pin."""
PI_GND_PADS = (6, 9, 14, 20, 25, 30, 34, 39)


def _pi_pins() -> tuple[tuple[int, str, str], ...]:
    pins = [(pad, f"GPIO{g}", BIDIR) for g, pad in PI_GPIO_PAD.items()]
    pins += [(pad, "GND", PWRIN) for pad in PI_GND_PADS]
    pins += [(1, "3V3", PASSIVE), (17, "3V3", PASSIVE), (2, "5V", PASSIVE), (4, "5V", PASSIVE)]
    return tuple(sorted(pins))


PICO = PartSpec("RaspberryPi_Pico", "U", "Module:RaspberryPi_Pico_Common_THT", "SC0915",
                "Raspberry Pi Pico (RP2040); powered and read over USB by the Pi", _pico_pins())
PI_HEADER = PartSpec("RaspberryPi_GPIO", "J", "Connector_PinSocket_2.54mm:PinSocket_2x20_P2.54mm_Vertical",
                     "SC0194", "Raspberry Pi 4/5 40-pin GPIO header (the Pi on its own supply)", _pi_pins())
HC165 = PartSpec("74HC165", "U", "Package_DIP:DIP-16_W7.62mm", "SN74HC165N",
                 "8-bit parallel-in shift register",
                 ((1, "SH/LD", IN), (2, "CLK", IN), (3, "E", IN), (4, "F", IN), (5, "G", IN), (6, "H", IN),
                  (7, "~QH", OUT), (8, "GND", PWRIN), (9, "QH", OUT), (10, "SER", IN), (11, "A", IN), (12, "B", IN),
                  (13, "C", IN), (14, "D", IN), (15, "CLK_INH", IN), (16, "VCC", PWRIN)))
HC4067 = PartSpec("CD74HC4067", "U", "Package_DIP:DIP-24_W15.24mm", "CD74HC4067E",
                  "16-channel analog multiplexer",
                  ((1, "COM", PASSIVE), *((9 - i, f"I{i}", PASSIVE) for i in range(8)), (10, "S0", IN),
                   (11, "S1", IN), (12, "GND", PWRIN), (13, "S3", IN), (14, "S2", IN), (15, "~E", IN),
                   *((23 - (i - 8), f"I{i}", PASSIVE) for i in range(8, 16)), (24, "VCC", PWRIN)))
HC244 = PartSpec("74HC244", "U", "Package_DIP:DIP-20_W7.62mm", "SN74HC244N",
                 "octal buffer: CLK and SH/LD for 16 shift registers",
                 ((1, "~1OE", IN), (2, "1A1", IN), (3, "2Y4", OUT), (4, "1A2", IN), (5, "2Y3", OUT), (6, "1A3", IN),
                  (7, "2Y2", OUT), (8, "1A4", IN), (9, "2Y1", OUT), (10, "GND", PWRIN), (11, "2A1", IN),
                  (12, "1Y4", OUT), (13, "2A2", IN), (14, "1Y3", OUT), (15, "2A3", IN), (16, "1Y2", OUT),
                  (17, "2A4", IN), (18, "1Y1", OUT), (19, "~2OE", IN), (20, "VCC", PWRIN)))
AHCT125 = PartSpec("74AHCT125", "U", "Package_DIP:DIP-14_W7.62mm", "SN74AHCT125N",
                   "quad buffer at 5 V: the LED data from 3.3 V to 5 V",
                   ((1, "~1OE", IN), (2, "1A", IN), (3, "1Y", OUT), (4, "~2OE", IN), (5, "2A", IN), (6, "2Y", OUT),
                    (7, "GND", PWRIN), (8, "3Y", OUT), (9, "3A", IN), (10, "~3OE", IN), (11, "4Y", OUT),
                    (12, "4A", IN), (13, "~4OE", IN), (14, "VCC", PWRIN)))
LDO = PartSpec("LD1117V33", "U", "Package_TO_SOT_THT:TO-220-3_Vertical", "LD1117V33",
               "3.3 V 800 mA regulator for the linear hall sensors",
               ((1, "GND", PWRIN), (2, "VO", PWROUT), (3, "VI", PWRIN)))
HALL_SWITCH = PartSpec("DRV5032FB", "H", "Package_TO_SOT_SMD:SOT-23", "DRV5032FBDBZR",
                       "omnipolar hall switch, open drain, 1.65-5.5 V",
                       ((1, "VCC", PWRIN), (2, "OUT", OPENCOLL), (3, "GND", PWRIN)))
HALL_LINEAR = PartSpec("DRV5055A1", "H", "Package_TO_SOT_SMD:SOT-23", "DRV5055A1QDBZR",
                       "ratiometric linear hall sensor, 3.3 V",
                       ((1, "VCC", PWRIN), (2, "OUT", OUT), (3, "GND", PWRIN)))
WS2812B = PartSpec("WS2812B", "D", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm", "WS2812B",
                   "RGB LED with its driver (strips and single-LED boards carry its 100 nF)",
                   ((1, "VDD", PWRIN), (2, "DOUT", OUT), (3, "VSS", PWRIN), (4, "DIN", IN)))
TWO_PINS = ((1, "1", PASSIVE), (2, "2", PASSIVE))
RES = PartSpec("R", "R", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm_Horizontal", "CF14JT330R",
               "resistor", TWO_PINS)
RES_NETWORK = PartSpec("R_Network08", "RN", "Resistor_THT:R_Array_SIP9", "4609X-101-103LF",
                       "8 x 10 kOhm bussed resistor network (pin 1 common)",
                       ((1, "common", PASSIVE), *((i + 2, f"R{i + 1}", PASSIVE) for i in range(8))))
CAP = PartSpec("C", "C", "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm", "K104K15X7RF5TL2",
               "100 nF ceramic decoupling capacitor", TWO_PINS)
CAP_10U = PartSpec("C", "C", "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm", "FG28X5R1C106KRT06",
                   "10 uF ceramic: the sensors' local supply", TWO_PINS)
CAP_BULK = PartSpec("CP", "C", "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm", "EEU-FR1A102",
                    "1000 uF 10 V electrolytic across the LED strip's 5 V", ((1, "+", PASSIVE), (2, "-", PASSIVE)))
FUSE = PartSpec("Fuse", "F", "Fuse:Fuseholder_Blade_Mini_Keystone_3568", "0297xxx.WXNV",
                "mini blade fuse in its holder, one per LED feed (0297 series: 002 = 2 A, 003 = 3 A, ...)", TWO_PINS)
SUPPLY = PartSpec("Supply_5V", "J", "TerminalBlock:TerminalBlock_bornier-2_P5.08mm", "LRS-100-5",
                  "5 V supply for the LEDs, sized per game (LRS-50-5: 10 A, LRS-100-5: 18 A)",
                  ((1, "+5V", PWROUT), (2, "GND", PWROUT)))
BUTTON = PartSpec("SW_Push", "SW", "Button_Switch_THT:SW_PUSH_6mm", "B3F-1000",
                  "push button, to GND", TWO_PINS)
ENCODER = PartSpec("RotaryEncoder", "SW", "Rotary_Encoder:RotaryEncoder_Alps_EC11E_Vertical_H20mm",
                   "EC11E15244G1", "rotary encoder with detents, common to GND",
                   ((1, "A", PASSIVE), (2, "C", PASSIVE), (3, "B", PASSIVE)))
_CHAIN = ((1, "3V3", PASSIVE), (2, "GND", PASSIVE), (3, "CLK", PASSIVE), (4, "SH/LD", PASSIVE))
"""A sensor module's connectors: power and the chain's clocks; pin 5 carries its data."""
CHAIN_IN = PartSpec("Conn_01x05", "J", "Connector_PinHeader_2.54mm:PinHeader_1x05_P2.54mm_Vertical", "PH1-05-UA",
                    "the module's chain connector towards the Pico", (*_CHAIN, (5, "QH", PASSIVE)))
CHAIN_OUT = PartSpec("Conn_01x05", "J", "Connector_PinSocket_2.54mm:PinSocket_1x05_P2.54mm_Vertical", "PPTC051LFBN-RC",
                     "the module's chain connector to the next module", (*_CHAIN, (5, "SER", PASSIVE)))
