"""The catalogue is whole (issue 36, point 6): every ``.po`` is one gettext's own ``msgfmt --check``
takes (a header, Spanish plural forms ``nplurals=2``), and every text the pages ask for
(``display.js``'s ``t``/``tn``, the pages' ``data-t``) is in the display's catalogue in both
languages, a text said by a number with a form for 1 and one for the rest."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from controller import locale
from controller.i18n import LANGUAGES, catalogue


@pytest.mark.parametrize("language", LANGUAGES)
def test_msgfmt_checks_every_catalogue(language: str) -> None:
    done = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(locale.po_path(language))],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and not done.stderr, done.stderr
    header = locale.po_path(language).read_text("utf-8")
    assert f'"Plural-Forms: {locale.PLURAL_FORMS}\\n"' in header and f'"Language: {language}\\n"' in header


def page_keys() -> dict[str, bool]:
    """Every code the pages ask for: code -> whether it is said by a number (``tn``)."""
    script = "\n".join(path.read_text("utf-8") for path in sorted(locale.STATIC.glob("*.js")))
    keys = {code: kind == "tn" for kind, code in re.findall(r'\b(tn?)\("([\w.]+)"', script)}
    for page in locale.STATIC.glob("*.html"):
        keys.update(dict.fromkeys(re.findall(r'data-t="([\w.]+)"', page.read_text("utf-8")), False))
    return keys


def test_every_text_the_pages_ask_for_is_in_both_languages() -> None:
    table = json.loads(locale.JSON_CATALOGUE.read_text("utf-8"))
    keys = page_keys()
    assert keys.get("display.moves")  # the hall's "· 28 moves"
    for language in LANGUAGES:
        for code, by_number in keys.items():
            assert code in table[language], (language, code)
            said = table[language][code]
            assert isinstance(said, list) == by_number, (language, code, said)
            assert not by_number or len(said) == 2, (language, code, said)


@pytest.mark.parametrize(("count", "spanish", "english"), [(1, "1 jugada", "1 move"), (28, "28 jugadas", "28 moves"),
                                                          (0, "0 jugadas", "0 moves")])
def test_a_number_of_the_pages_takes_its_form(count: int, spanish: str, english: str) -> None:
    table = json.loads(locale.JSON_CATALOGUE.read_text("utf-8"))
    for language, said in (("es", spanish), ("en", english)):
        forms = table[language]["display.moves"]
        assert forms[0 if count == 1 else -1].format(count=count) == said
        # the service's own catalogue (.mo) picks its forms by the same rule
        assert catalogue(language).npgettext("display.moves", "{count} move", "{count} moves", count).format(
            count=count) == said
