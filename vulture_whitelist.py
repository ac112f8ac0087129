# ruff: noqa: B018  (a vulture whitelist is attribute accesses whose value is unused, by design)
"""Names vulture reports as unused in ``vulture controller/games tests/games --min-confidence 60``
that are used: by callers outside those folders, by name at run time, or as data fields.

Run as ``vulture controller/games tests/games vulture_whitelist.py --min-confidence 60``.
"""

from controller.games import base, record

base.ANNOUNCEMENTS  # the event types the conformance suite and docs/mqtt.md check announcements against
base.Announcement.type  # a TypedDict key: set in every engine's announcements, read by the service's events
base.Game.channel_positions  # API method (each engine overrides it): controller/demo.py draws the LEDs with it
record.Record.replay  # the conformance suite replays every record through it (tests/test_conformance.py)
record.Record.to_dict  # `arbitro journal --export` writes records with it
record.Record.from_dict  # `arbitro replay` reads them back
record.Match.apply_text  # the service and `arbitro replay` apply action texts through it
record.Match.undo  # the service's undo (button and MQTT)
