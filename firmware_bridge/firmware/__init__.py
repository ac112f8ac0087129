"""The sensor MCU's MicroPython firmware (``arbitro_fw.py``, ``main.py``); see ``arbitro_fw``'s docstring."""
