"""arbitro's gettext catalogues, and how they are made with Babel.

``<lang>/LC_MESSAGES/arbitro.po`` is the source (translators edit it); ``arbitro.mo`` beside it is
compiled from it, and ``controller/display/static/i18n.json`` is the same catalogue for the
display's pages. Both are shipped (nothing imports Babel at run time: it is the ``locale`` extra, in
the ``test`` extra too), built by ``python -m controller.locale`` (which also extracts
``arbitro.pot`` and merges new texts into the ``.po`` files); ``python -m controller.locale --check``
fails when any of them is out of date or a text has no Spanish (the tests run it). Each ``.po`` has
a header with its plural forms (:data:`PLURAL_FORMS`), so gettext's own ``msgfmt --check`` takes it.

What is extracted: every ``Phrase(code, template)`` of the Python code (msgctxt = the code, msgid =
the English template), every ``Plural(code, singular, plural)`` (msgid and msgid_plural: gettext's
plural forms, ``npgettext``), every ``t(code, template)`` and ``tn(code, singular, plural)`` of
``display.js``, and every ``data-t="code"`` element of the display's pages (its English text is
the msgid).
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

try:
    from babel.messages.catalog import Catalog, Message
    from babel.messages.extract import extract_from_dir
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po, write_po
except ModuleNotFoundError as exc:  # the service never builds catalogues: a Pi's install has no Babel
    raise ModuleNotFoundError(f"{exc}: the catalogues are built with Babel: pip install -e '.[locale]'",
                              name=exc.name) from exc

HERE = Path(__file__).parent
CONTROLLER = HERE.parent
STATIC = CONTROLLER / "display" / "static"
DOMAIN = "arbitro"
LANGUAGES = ("es", "en")
JSON_CATALOGUE = STATIC / "i18n.json"
MQTT_DOC = CONTROLLER.parent / "docs" / "mqtt.md"
CODES_BEGIN = "<!-- codes: begin (written by python -m controller.locale) -->\n"
CODES_END = "<!-- codes: end -->"
KEYWORDS = {"Phrase": ((1, "c"), 2), "Plural": ((1, "c"), 2, 3), "t": ((1, "c"), 2), "tn": ((1, "c"), 2, 3)}
BUILT_AT = datetime(2026, 1, 1, tzinfo=UTC)  # the catalogues' header dates: a rebuild changes no byte
PLURAL_FORMS = "nplurals=2; plural=(n != 1);"
"""Spanish and English alike: a form for 1, one for every other number (gettext's rule for both;
Babel's CLDR data would give Spanish a third, for millions, that no translator writes)."""
_HTML_TEXT = re.compile(r'data-t="([\w.]+)"[^>]*>([^<]+)<')


def extract_html(fileobj: IO[bytes], _keywords: object, _comment_tags: object,
                 options: object) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """A Babel extraction method for the display's pages: ``<h1 data-t="code">English</h1>``."""
    text = fileobj.read().decode("utf-8")
    for found in _HTML_TEXT.finditer(text):
        line = text.count("\n", 0, found.start()) + 1
        yield line, "t", (found.group(1), " ".join(found.group(2).split())), []


def po_path(language: str) -> Path:
    return HERE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract() -> Catalog:
    """Every text arbitro says, from the code (``arbitro.pot``)."""
    template = Catalog(project="arbitro", domain=DOMAIN, charset="utf-8", creation_date=BUILT_AT,
                       revision_date=BUILT_AT)
    method_map = [("**/locale/**", "ignore"), ("**.py", "python"), ("display/static/**.js", "javascript"),
                  ("display/static/**.html", extract_html)]
    for filename, lineno, message, comments, context in extract_from_dir(
            CONTROLLER, method_map, keywords=KEYWORDS):  # type: ignore[arg-type]
        if context is None:
            raise ValueError(f"{filename}:{lineno}: {message!r} has no code")
        other = next((m for m in template if m.context == context and m.id != message), None)
        if other is not None:  # a display (i18n.json) keeps one text per code
            raise ValueError(f"{filename}:{lineno}: the code {context} says {message!r} here, {other.id!r} elsewhere")
        known = template.get(message, context)
        if known is not None:
            known.locations.append((filename, lineno))
        else:
            template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def _render_po(catalog: Catalog, header: bool = False) -> bytes:
    """A ``.po`` (with its header: ``msgfmt --check`` asks for one) or the ``.pot`` (without)."""
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=not header, sort_output=True, no_location=True)
    # which Babel built it is no part of the catalogue: a rebuild with another changes no byte
    return re.sub(rb'"Generated-By: [^"]*"\n', b"", out.getvalue())


def with_plurals(catalog: Catalog, language: str) -> Catalog:
    """``catalog`` with :data:`PLURAL_FORMS` and its header's words (a translator's ``.po``)."""
    catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS)]
    catalog.header_comment = f"# arbitro's texts in {'Spanish' if language == 'es' else 'English'}.\n" \
                             "# Built by python -m controller.locale: translators edit the msgstr lines."
    catalog.last_translator = catalog.language_team = "arbitro"
    catalog.project, catalog.version, catalog.msgid_bugs_address = "arbitro", "1", "arbitro's issues"
    catalog.fuzzy = False  # the header itself: a fuzzy one is a draft to gettext
    return catalog


def _render_mo(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as f:
        return with_plurals(read_po(f, locale=language, domain=DOMAIN), language)


def updated(language: str, template: Catalog) -> Catalog:
    """The ``.po`` of ``language`` with the texts of ``template`` (new ones untranslated, gone ones dropped)."""
    path = po_path(language)
    catalog = read(language) if path.exists() else with_plurals(
        Catalog(locale=language, domain=DOMAIN, charset="utf-8"), language)
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    catalog.creation_date = catalog.revision_date = BUILT_AT
    return catalog


def english_forms(message: Message) -> list[str]:
    """A text's forms (one; or the singular and the plural of a text said by a number)."""
    return list(message.id) if isinstance(message.id, tuple | list) else [str(message.id)]


def translated_forms(message: Message) -> list[str]:
    """A text's forms in its catalogue's language ('' where it has none)."""
    string = message.string
    return [str(s) for s in string] if isinstance(string, tuple | list) else [str(string or "")]


def json_catalogue(catalogs: dict[str, Catalog]) -> bytes:
    """``{language: {code: template}}`` for ``display.js`` (English: the msgid); a text said by a
    number has its forms as a list (:data:`PLURAL_FORMS`): the form for 1, then the one for others."""
    table: dict[str, dict[str, str | list[str]]] = {}
    for language, catalog in catalogs.items():
        table[language] = {}
        for m in catalog:
            if m.id and m.context:
                forms = translated_forms(m) if all(translated_forms(m)) else english_forms(m)
                table[language][m.context] = forms if m.pluralizable else forms[0]
    return (json.dumps(table, ensure_ascii=False, indent=0, sort_keys=True) + "\n").encode("utf-8")


def built() -> dict[Path, bytes]:
    """Every file the catalogues are made of, as ``python -m controller.locale`` writes them."""
    template = extract()
    catalogs = {language: updated(language, template) for language in LANGUAGES}
    files = {HERE / f"{DOMAIN}.pot": _render_po(template), JSON_CATALOGUE: json_catalogue(catalogs),
             MQTT_DOC: mqtt_doc(catalogs["es"])}
    for language, catalog in catalogs.items():
        files[po_path(language)] = _render_po(catalog, header=True)
        files[po_path(language).with_suffix(".mo")] = _render_mo(catalog)
    return files


def untranslated(language: str = "es") -> list[str]:
    """The codes whose text has no translation (or a fuzzy one) in ``language``."""
    return sorted(m.context or str(m.id) for m in read(language)
                  if m.id and (not all(translated_forms(m)) or m.fuzzy))


def stale() -> list[str]:
    """The catalogue files that are not what the code and the ``.po`` files make."""
    return sorted(str(path.relative_to(CONTROLLER.parent)) for path, data in built().items()
                  if not path.exists() or path.read_bytes() != data)


def write() -> list[Path]:
    """Extract, merge and compile; the files that changed."""
    changed = []
    for path, data in built().items():
        if not path.exists() or path.read_bytes() != data:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            changed.append(path)
    return changed


NOT_ON_MQTT = ("display.", "demo.", "tools.")
"""Codes of texts said where they are made (the display's pages, the demo's terminal, the builder's tools)."""


def codes_table(spanish: Catalog) -> str:
    """The table of every code MQTT may carry, English and Spanish."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|")
    rows = ["| code | English | Spanish |", "|---|---|---|"]
    rows += [f"| `{m.context}` | {cell(' / '.join(english_forms(m)))} | {cell(' / '.join(translated_forms(m)))} |"
             for m in sorted(spanish, key=lambda m: m.context or "")
             if m.id and m.context and not m.context.startswith(NOT_ON_MQTT)]
    return "\n".join(rows) + "\n"


def mqtt_doc(spanish: Catalog) -> bytes:
    """``docs/mqtt.md`` with its table of codes as the catalogue makes it."""
    doc = MQTT_DOC.read_text("utf-8")
    head, _, rest = doc.partition(CODES_BEGIN)
    _, _, tail = rest.partition(CODES_END)
    return (head + CODES_BEGIN + codes_table(spanish) + CODES_END + tail).encode("utf-8")
