"""The builder's subcommands: ``firmware flash``, ``diagnose``, ``layout``, ``calibrate`` (``docs/build/``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from controller.tools.console import Console


def _config(args: argparse.Namespace) -> Any:
    from controller.config import Config, load_config

    return load_config(args.config) if args.config else Config.from_dict({})


def _url(args: argparse.Namespace, config: Any) -> str:
    return str(args.url or config.sensors.url)


def _fail(message: str, code: int = 1) -> int:
    print(f"arbitro: {message}", file=sys.stderr)
    return code


def _flash(args: argparse.Namespace) -> int:
    from controller.tools.flash import MPREMOTE, FlashError, flash
    from hardware.layout import LayoutError, load_layout

    try:
        layout = load_layout(args.layout)
        config = _config(args)
        mpremote = tuple(args.mpremote.split()) if args.mpremote else MPREMOTE
        flash(layout, _url(args, config), source=str(args.layout), mpremote=mpremote, check=not args.no_check,
              timeout=args.timeout, language=config.board.language)
    except (FlashError, LayoutError) as exc:
        return _fail(str(exc))
    return 0


def _open(args: argparse.Namespace, layout: Any) -> tuple[Any, Any, Any]:
    """The configuration, the LED strip and the board link the interactive tools share."""
    from controller.app import make_strip
    from controller.tools.board import BoardLink

    config = _config(args)
    strip = make_strip(config, layout)
    board = BoardLink(_url(args, config), language=config.board.language)
    board.start(args.timeout)
    return config, strip, board


def _diagnose(args: argparse.Namespace) -> int:
    from controller.app import StartupError, make_inputs
    from controller.tools.board import BoardError
    from controller.tools.diagnose import Diagnosis
    from hardware.layout import LayoutError, load_layout

    console = Console(sys.stdin, sys.stdout)
    try:
        layout = load_layout(args.layout)
        config, strip, board = _open(args, layout)
    except (BoardError, LayoutError, StartupError) as exc:
        return _fail(str(exc))
    console.language = config.board.language  # the builder's prompts in the board's language
    inputs = None
    if not args.no_inputs:
        try:
            inputs = make_inputs(config, layout)
        except StartupError as exc:
            console.say(f"buttons and encoders not checked: {exc}")
    try:
        report = Diagnosis(layout, board, strip, console, inputs=inputs, pace=args.pace, timeout=args.timeout).run()
    finally:
        board.close()
        if inputs is not None:
            inputs.close()
    return 0 if report.ok else 1


def _record(args: argparse.Namespace) -> int:
    from controller.app import StartupError
    from controller.games import get_game
    from controller.tools.board import BoardError
    from controller.tools.record import Recorder
    from hardware.layout import LayoutError, load_layout

    try:
        game = get_game(args.game)
        base = load_layout(args.base or args.game)
        config, strip, board = _open(args, base)
    except (BoardError, KeyError, LayoutError, StartupError) as exc:
        return _fail(str(exc.args[0] if isinstance(exc, KeyError) else exc))
    console = Console(sys.stdin, sys.stdout, config.board.language)
    try:
        layout = Recorder(game, base, board, strip, console, timeout=args.timeout).run()
    except LayoutError as exc:
        return _fail(str(exc))
    finally:
        board.close()
    Path(args.out).write_text(json.dumps(layout.to_dict(), indent=1) + "\n")
    print(f"wrote {args.out}; flash it: arbitro firmware flash --layout {args.out}")
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    from controller.app import StartupError
    from controller.tools.board import BoardError
    from controller.tools.calibrate import Calibration
    from hardware.layout import LayoutError, load_layout

    try:
        layout = load_layout(args.layout)
        config, _, board = _open(args, layout)
    except (BoardError, LayoutError, StartupError) as exc:
        return _fail(str(exc))
    pieces = [int(p) for p in args.pieces.split(",")] if args.pieces else None
    out = Path(args.out or args.layout)
    partial = out.with_name(out.name + ".partial.json")  # what was measured, kept for the next run
    resume = json.loads(partial.read_text()) if partial.is_file() else None
    try:
        layout = Calibration(layout, board, Console(sys.stdin, sys.stdout, config.board.language),
                             max_count=args.max_count,
                             pieces=pieces, count_channel=args.count_channel, piece_channel=args.piece_channel,
                             timeout=args.timeout, resume=resume,
                             save=lambda progress: partial.write_text(json.dumps(progress, indent=1) + "\n")).run()
    except (BoardError, LayoutError) as exc:
        return _fail(str(exc) + (f" (kept in {partial})" if partial.is_file() else ""))
    finally:
        board.close()
    out.write_text(json.dumps(layout.to_dict(), indent=1) + "\n")
    partial.unlink(missing_ok=True)
    print(f"wrote {out}; flash it so the Pico uses the thresholds: arbitro firmware flash --layout {out}")
    return 0


def _common(p: argparse.ArgumentParser, timeout: float) -> None:
    p.add_argument("--url", help="the sensor board: a serial device or pyserial URL (default: sensors.url)")
    p.add_argument("--config", help="the service's TOML configuration (sensors.url, leds, inputs)")
    p.add_argument("--timeout", type=float, default=timeout, help="seconds to wait for the board or a step")


def add_commands(sub: Any) -> None:
    """Add the builder's subcommands to ``arbitro``'s subparsers."""
    p = sub.add_parser("firmware", help="the Pico's firmware: flash it with the layout's board configuration")
    fsub = p.add_subparsers(dest="firmware_command", required=True, metavar="ACTION")
    f = fsub.add_parser("flash", help="copy the firmware and a board_config.py generated from the layout (mpremote)")
    f.add_argument("--layout", required=True, help="layout file, or a game name for its reference layout")
    f.add_argument("--mpremote", help="the mpremote command (default: this Python's -m mpremote)")
    f.add_argument("--no-check", action="store_true", help="do not wait for the HELLO and check it")
    _common(f, 15.0)
    f.set_defaults(func=_flash)

    p = sub.add_parser("diagnose", help="check a built board: sensors live by name, stuck/silent ones, LEDs, inputs")
    p.add_argument("--layout", required=True, help="layout file, or a game name for its reference layout")
    p.add_argument("--pace", type=float, default=0.3, help="seconds each LED stays lit")
    p.add_argument("--no-inputs", action="store_true", help="skip the buttons and encoders")
    _common(p, 30.0)
    p.set_defaults(func=_diagnose)

    p = sub.add_parser("layout", help="record the layout of a board wired otherwise, element by element")
    p.add_argument("--game", required=True, help="the game the board is for")
    p.add_argument("--base", help="layout giving LEDs, encoders, buttons (default: the game's reference layout)")
    p.add_argument("--out", required=True, help="the layout file to write")
    _common(p, 120.0)
    p.set_defaults(func=_record)

    p = sub.add_parser("calibrate", help="record thresholds of the analog count/piece sensors into the layout")
    p.add_argument("--layout", required=True, help="the layout file (gets a calibration section)")
    p.add_argument("--out", help="write here instead of over --layout")
    p.add_argument("--max-count", type=int, default=8, help="bead counts to measure: 1..N")
    p.add_argument("--pieces", help="piece codes to measure, e.g. 1,2,3,4 (default 1,2,3,4)")
    p.add_argument("--count-channel", default="", help="the pit to measure on (default: the first)")
    p.add_argument("--piece-channel", default="", help="the square to measure on (default: the first)")
    _common(p, 120.0)
    p.set_defaults(func=_calibrate)
