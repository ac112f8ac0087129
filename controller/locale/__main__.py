"""``python -m controller.locale``: extract the texts, merge them into the ``.po`` files, compile the
``.mo`` files and the display's JSON catalogue. ``--check``: change nothing, fail (exit 1) when a
file is out of date or a text has no Spanish translation."""

from __future__ import annotations

import argparse
import sys

from controller import locale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m controller.locale", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only check that everything is built and translated")
    args = parser.parse_args(argv)
    if args.check:
        stale, missing = locale.stale(), locale.untranslated("es")
        for path in stale:
            print(f"out of date: {path} (run python -m controller.locale)", file=sys.stderr)
        for code in missing:
            print(f"no Spanish for {code}", file=sys.stderr)
        return 1 if stale or missing else 0
    for written in locale.write():
        print(f"wrote {written}")
    missing = locale.untranslated("es")
    if missing:
        print(f"{len(missing)} texts have no Spanish yet: {', '.join(missing[:10])}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
