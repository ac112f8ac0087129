"""The sensor MCU link: wire protocol, host serial link, MicroPython firmware, simulated board.

- ``firmware_bridge.protocol``: message dataclasses, ``encode``, ``Decoder`` (pure, no I/O).
- ``firmware_bridge.link``: ``HostLink``, the pyserial reader thread posting typed events.
- ``firmware_bridge.firmware.arbitro_fw``: the Pico's firmware (runs on CPython too).
- ``firmware_bridge.sim_machine``: doubles of MicroPython's ``machine`` and ``time`` for it.
- ``firmware_bridge.sim``: ``SimulatedBoard``, the firmware on a pty or TCP port.
"""
