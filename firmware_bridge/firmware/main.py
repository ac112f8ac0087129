"""Pico entry point (MicroPython): copy this file and arbitro_fw.py to the board's filesystem.

Edit BLOCKS and BOARD_KIND for the board that is wired (one presence bit per shift-register
input, one analog input per COUNT or PIECE channel, in block order). Not imported on CPython.
"""

import time

import arbitro_fw
import machine

BOARD_KIND = "contigo"
BLOCKS = [("piece", 36), ("count", 28)]

config = arbitro_fw.default_config(BLOCKS, BOARD_KIND, scan_us=2000, debounce_scans=3, heartbeat_ms=250)
config["watchdog_ms"] = 2000
arbitro_fw.Firmware(config, machine, time, arbitro_fw.UsbCdcPort()).run()
