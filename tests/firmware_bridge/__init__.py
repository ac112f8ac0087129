"""Tests of firmware_bridge: protocol, firmware, host link, simulated board, CLI."""
