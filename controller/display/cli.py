"""``arbitro display``'s command-line options (kept apart so ``arbitro --help`` stays light)."""

from __future__ import annotations

import argparse
import os
import ssl
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from controller.display.config import DisplayConfig


def host_port(option: str, text: str, default_port: int, *, any_port: bool = True) -> tuple[str, int]:
    """``HOST:PORT`` (or ``HOST`` alone: ``default_port``); port 0 (any free one) only when
    ``any_port``, as for an address to listen on. An ``ArgumentTypeError`` names ``option``."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = text, str(default_port)
    low = 0 if any_port else 1
    if not port.isdigit() or not low <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"{option} {text}: expected HOST:PORT, the port from {low} to 65535")
    return host or "127.0.0.1", int(port)


def bind_error(exc: OSError) -> str:
    """Why an address cannot be listened on, in the system's words (asyncio's own are wordier)."""
    return os.strerror(exc.errno) if exc.errno and exc.errno > 0 else (exc.strerror or str(exc))


def board_delay(text: str) -> tuple[str, float]:
    board, sep, seconds = text.partition("=")
    try:
        if not sep or not board or float(seconds) < 0:
            raise ValueError
        return board, float(seconds)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: expected BOARD=SECONDS") from exc


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", default="127.0.0.1:1883", help="HOST:PORT of the MQTT broker")
    parser.add_argument("--listen", default="0.0.0.0:8080", help="HOST:PORT to serve the pages on (port 0: any)")
    parser.add_argument("--base-topic", default="arbitro", help="the boards' base topic")
    parser.add_argument("--username", default="", help="MQTT account (password in $ARBITRO_DISPLAY_PASSWORD)")
    parser.add_argument("--tls-ca", help="TLS to the broker, checked against this CA file ('' for the system's)")
    parser.add_argument("--delay", type=float, default=0.0, help="spectator delay in seconds for every board")
    parser.add_argument("--board-delay", type=board_delay, action="append", default=[], metavar="BOARD=SECONDS",
                        help="spectator delay for one board (repeatable)")
    parser.add_argument("--public-url", default="", help="how phones reach this server, for the seat QR codes")
    parser.add_argument("--hide-offline-after", type=float, default=600.0, metavar="SECONDS",
                        help="the hall greys an offline board, and hides it once it has been offline this long "
                        "(0: never)")
    parser.add_argument("--max-pages", type=int, default=200, help="pages open at once; one more is refused")
    parser.add_argument("--stuck-after", type=float, default=10.0,
                        help="seconds a page may leave what it was sent unread before it is dropped")
    parser.add_argument("--event", default="", help="the event tag of the records downloaded here (docs/records.md)")
    parser.add_argument("--site", default="", help="the site tag of the records downloaded here")


def check_ca_file(path: str, option: str) -> None:
    """Load ``path`` as paho will (a CA bundle, PEM), so a wrong one is one line at start-up."""
    try:
        ssl.create_default_context(cafile=path)
    except ssl.SSLError as exc:
        raise argparse.ArgumentTypeError(f"{option} {path}: holds no CA certificate (PEM)") from exc
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{option} {path}: {exc.strerror}") from exc


def check_public_url(url: str) -> None:
    """``--public-url``: empty (the page's own address), or an http(s) address with a host, where
    phones reach this server; anything else is one line at start-up."""
    if not url:
        return
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(f"--public-url {url}: not an http:// or https:// address of this server "
                                         "(for example http://192.168.1.20:8080)")


def config_from(args: argparse.Namespace) -> DisplayConfig:
    """The display's configuration; an ``ArgumentTypeError`` names the option that does not fit."""
    from controller.config import ConfigError, check_topic_name
    from controller.display.config import DisplayConfig

    broker_host, broker_port = host_port("--broker", args.broker, 1883, any_port=False)
    host, port = host_port("--listen", args.listen, 8080)
    if args.delay < 0:
        raise argparse.ArgumentTypeError("--delay must not be negative")
    if args.tls_ca:
        check_ca_file(args.tls_ca, "--tls-ca")
    try:
        check_topic_name("--base-topic", args.base_topic, 256)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc
    check_public_url(args.public_url)
    if args.hide_offline_after < 0:
        raise argparse.ArgumentTypeError("--hide-offline-after must not be negative")
    if args.max_pages < 1 or not args.stuck_after > 0:
        raise argparse.ArgumentTypeError("--max-pages must be at least 1 and --stuck-after more than 0")
    return DisplayConfig(broker_host=broker_host, broker_port=broker_port, username=args.username,
                         password=os.environ.get("ARBITRO_DISPLAY_PASSWORD", ""), tls_ca=args.tls_ca,
                         base_topic=args.base_topic, host=host, port=port, delay=args.delay,
                         board_delays=dict(args.board_delay), public_url=args.public_url,
                         max_pages=args.max_pages, stuck_after=args.stuck_after, event=args.event, site=args.site,
                         hide_after=args.hide_offline_after)
