"""Names vulture reports as unused that are used: by callers it does not see, by name at run time,
or as data fields; each with why.

Run by the README's test command as ``vulture controller firmware_bridge hardware bench tests
vulture_whitelist.py --min-confidence 60`` (see ``scripts/dev``).
"""

from vulture.whitelist_utils import Whitelist

from controller.games import base, record
from controller.games.jeocinco import board as jeocinco_board

_ = Whitelist()

base.ANNOUNCEMENTS  # the event types the conformance suite and docs/mqtt.md check announcements against
base.Announcement.type  # a TypedDict key: set in every engine's announcements, read by the service's events
record.Record.replay  # the conformance suite replays every record through it (tests/test_conformance.py)
record.Record.to_dict  # `arbitro journal --export` writes records with it
record.Record.from_dict  # `arbitro replay` reads them back
record.Match.apply_text  # the service and `arbitro replay` apply action texts through it
record.Match.undo  # the service's undo (button and MQTT)
jeocinco_board.bridge_data_text  # scripts/jeocinco_bridges.py writes bridges.json with it

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
_.screenshots
_.GAME
# paho reads MQTT 5 properties by attribute name.
_.SessionExpiryInterval
# The simulated Pico's MicroPython ``os``: mpremote's scripts call these by name through the REPL.
_.ilistdir
_.getcwd
_.uname
# pytest calls its hooks by name: tests/conftest.py prints the random order's seed with this one.
_.pytest_terminal_summary
# Babel writes a catalogue's header dates from these (controller/locale: fixed, so rebuilds are byte-equal).
_.creation_date
_.revision_date
# argparse passes it to an Action (controller/cli.py: --version), and reads an action's attributes
# for its help (controller/demo.py: --players' usual numbers).
_.option_string
_.usual
# settings read by SKiDL and reportlab, set on their objects by controller.tools.schematic
_.no_files  # skidl.Circuit: write no log or ERC file beside the caller
_.drive  # skidl.Net: a rail driven like KiCad's PWR_FLAG
_.erc_list  # skidl.Circuit: the rules check each circuit runs (circuit._circuit_erc)
_.invariant  # reportlab.rl_config: PDFs without a date or random id, the same bytes every time
# Babel writes a catalogue's PO header from these (controller/locale: a valid header, msgfmt --check clean).
_.mime_headers
_.header_comment
_.language_team
_.last_translator
_.msgid_bugs_address
_.project
