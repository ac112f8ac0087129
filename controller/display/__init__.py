"""The display: a web server that draws every board live from MQTT (``arbitro display``).

``server`` (aiohttp, Server-Sent Events, the MQTT client), ``model`` (what the display knows of a
board), ``render`` (each game's SVG from a public state), ``contigo_svg``, ``static/`` (the pages).
"""
