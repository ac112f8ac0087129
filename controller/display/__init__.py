"""The display: a web server that draws every board live from MQTT (``arbitro display``).

``server`` (the parts put together, which part answers each address; ``arbitro display`` itself),
``broker`` (the MQTT client), ``streams`` (the pages' Server-Sent Events), ``hall`` (what the hall
and the board pages are told), ``seats`` (seat pages, pairing, names, phone seats' moves),
``config``, ``cli`` (its options), ``model`` (what the display knows of a board), ``render`` (any
game's SVG from a public state, by the game's own picture), ``static/`` (the pages).
"""
