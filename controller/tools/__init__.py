"""The builder's tools: ``arbitro firmware flash``, ``diagnose``, ``layout``, ``calibrate``, the build diagrams.

Each interactive tool is a small class that talks to the sensor board through a ``BoardLink``
(``firmware_bridge.link.HostLink`` on the Pico's serial port or the simulated board's pty), an
LED strip (``hardware.leds.LedStrip``; the recording strip off a Pi) and a ``Console`` (prompts
out, answers in), so the tests drive them with a scripted builder and the simulated board.
"""
