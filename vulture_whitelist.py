"""Names vulture reports as unused that are used, each with why (``vulture ... vulture_whitelist.py``)."""

from vulture.whitelist_utils import Whitelist

_ = Whitelist()

# The wire protocol names every error code the Pico's firmware may send, also those only it raises.
_.ERR_SCAN_OVERRUN
_.ERR_TX_OVERFLOW
# The fake MicroPython ``machine`` module: the firmware calls its API as on a Pico.
_.IN
_.PULL_UP
_.PULL_DOWN
_.mode
_.pull
_.off
# adafruit_pixelbuf calls ``_transmit`` on its subclasses with every frame.
_._transmit
# The simulated board counts what it drops (read when debugging a test), and shows its debounced values.
_.dropped
_.reported
# pytest finds fixtures by name; the registry finds an engine module's GAME by name.
_.mock_pins
_.twin
_.GAME
# paho reads MQTT 5 properties by attribute name.
_.SessionExpiryInterval
