"""The display: a web server that draws every board live from MQTT (``arbitro display``).

``server`` (aiohttp, Server-Sent Events, the MQTT client), ``model`` (what the display knows of a
board), ``render`` (any game's SVG from a public state, by the game's own picture), ``static/`` (the pages).
"""
