"""``python -m tests.golden regenerate``: rewrite every golden playthrough from the engines as they are."""

import sys

from tests.golden import regenerate

if sys.argv[1:] != ["regenerate"]:
    sys.exit("usage: python -m tests.golden regenerate")
regenerate()
