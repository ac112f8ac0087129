"""Pico entry point (MicroPython): runs the firmware with the board's ``board_config.py``.

``arbitro firmware flash --layout FILE`` generates ``board_config.py`` from the layout (channel
blocks, board kind, calibration, the id HELLO reports) and copies it with this file and
``arbitro_fw.py`` to the board; never edit it by hand. Not imported on CPython (tests run it with
doubles of ``machine``, ``time`` and ``micropython``).

The firmware disables Ctrl-C (a 0x03 byte inside a frame must not stop it), so mpremote cannot
break in; a STOP frame from the host (``arbitro firmware flash`` sends one first) ends ``run()``
and this file returns to the REPL.
"""

import time

import arbitro_fw
import board_config
import machine
import micropython

config = arbitro_fw.config_from(board_config)
firmware = arbitro_fw.Firmware(config, machine, time, arbitro_fw.UsbCdcPort())
try:
    firmware.run()
finally:
    micropython.kbd_intr(3)  # type: ignore[attr-defined]  # Ctrl-C again, for the REPL (MicroPython only)
