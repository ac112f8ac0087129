"""The docs in Spanish (issue 22, point 5) stay beside the English ones.

Every page of ``docs/build/`` and ``docs/rules/`` has a Spanish sibling ``<page>.es.md``, and
``README.md``'s opening has ``README.es.md``. A Spanish page repeats its English page's code
blocks byte for byte, in the same order (fenced blocks, and the indented example blocks the rules
pages' tests play), so a command or an example cannot drift in translation. Its relative links
reach files (and headings) that exist, and each page of a pair links the other.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOC_DIRS = (ROOT / "docs" / "build", ROOT / "docs" / "rules")
ENGLISH_PAGES = sorted(p for d in DOC_DIRS for p in d.glob("*.md") if not p.name.endswith(".es.md"))
SPANISH_PAGES = sorted(p for d in DOC_DIRS for p in d.glob("*.es.md"))

FENCE = re.compile(r"^ *(```|~~~)")
LINK = re.compile(r"!?\[[^\]]*\]\(<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\)")
INLINE_CODE = re.compile(r"`+[^`]*`+")
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def spanish(page: Path) -> Path:
    return page.with_name(page.stem + ".es.md")


def english(page: Path) -> Path:
    return page.with_name(page.name.removesuffix(".es.md") + ".md")


def rel(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def split(text: str) -> tuple[list[str], list[str]]:
    """The page's code blocks (each block's lines joined, fences included) and its prose lines.

    A fenced block runs from its fence to the closing one; an indented block is a run of lines
    indented by four spaces or more after a blank line, outside fences."""
    blocks: list[str] = []
    prose: list[str] = []
    block: list[str] = []
    fence = ""
    previous = ""
    for line in text.split("\n"):
        opening = FENCE.match(line)
        if fence:
            block.append(line)
            if opening and opening.group(1) == fence:
                blocks.append("\n".join(block))
                block, fence = [], ""
        elif opening:
            block, fence = [line], opening.group(1)
        elif re.match(r"^ {4,}\S", line) and (block or not previous.strip()):
            block.append(line)
        else:
            if block:
                blocks.append("\n".join(block))
                block = []
            prose.append(line)
        previous = line
    if block:
        blocks.append("\n".join(block))
    return blocks, prose


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = INLINE_CODE.sub(lambda m: m.group(0).strip("`"), heading.strip().lstrip("#").strip())
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    _, prose = split(page.read_text(encoding="utf-8"))
    return {slug(line) for line in prose if re.match(r"^#{1,6} ", line)}


def links(page: Path) -> list[str]:
    _, prose = split(page.read_text(encoding="utf-8"))
    return [m.group(1) for line in prose for m in LINK.finditer(INLINE_CODE.sub("", line))]


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in links(page):
        if SCHEME.match(target):
            continue
        path, _, fragment = target.partition("#")
        reached = (page.parent / path).resolve() if path else page
        if not reached.exists():
            broken.append(f"{target} (no such file)")
        elif fragment and reached.suffix == ".md" and fragment not in anchors(reached):
            broken.append(f"{target} (no such heading)")
    return broken


def links_to(page: Path, other: Path, lead: str) -> bool:
    """Whether ``page`` has a line starting with ``lead`` that links to ``other``."""
    _, prose = split(page.read_text(encoding="utf-8"))
    return any(
        (page.parent / m.group(1)).resolve() == other
        for line in prose
        if line.startswith(lead)
        for m in LINK.finditer(line)
    )


def starts_with_title_and_commands(page: Path) -> bool:
    lines = [line for line in page.read_text(encoding="utf-8").split("\n") if line.strip()]
    return lines[0] == "# arbitro" and lines[1] == "```sh"


def test_the_docs_to_translate_are_found() -> None:
    assert {p.parent.name for p in ENGLISH_PAGES} == {"build", "rules"}
    assert len(ENGLISH_PAGES) >= 9


@pytest.mark.parametrize("page", [README, *ENGLISH_PAGES], ids=rel)
def test_every_english_page_has_a_spanish_sibling(page: Path) -> None:
    assert spanish(page).exists(), f"{rel(page)} has no Spanish version {rel(spanish(page))}"


def test_every_spanish_page_has_its_english_page() -> None:
    orphans = [rel(page) for page in SPANISH_PAGES if not english(page).exists()]
    assert orphans == [], "Spanish pages that translate no English page"


@pytest.mark.parametrize("page", ENGLISH_PAGES, ids=rel)
def test_a_spanish_page_repeats_the_english_code_blocks_byte_for_byte(page: Path) -> None:
    assert spanish(page).exists(), f"{rel(page)} has no Spanish version"
    english_blocks, _ = split(page.read_text(encoding="utf-8"))
    spanish_blocks, _ = split(spanish(page).read_text(encoding="utf-8"))
    for n, (en, es) in enumerate(zip(english_blocks, spanish_blocks, strict=False), start=1):
        assert es == en, f"code block {n} of {rel(spanish(page))} differs from {rel(page)}'s"
    assert len(spanish_blocks) == len(english_blocks), (
        f"{rel(spanish(page))} has {len(spanish_blocks)} code blocks, {rel(page)} {len(english_blocks)}"
    )


def test_the_readme_still_starts_with_its_two_commands() -> None:
    assert starts_with_title_and_commands(README), "README.md must start with its title and the two commands"


def test_the_spanish_readme_opens_with_the_readmes_two_commands() -> None:
    assert starts_with_title_and_commands(spanish(README)), "README.es.md must start as README.md does"
    english_blocks, _ = split(README.read_text(encoding="utf-8"))
    spanish_blocks, _ = split(spanish(README).read_text(encoding="utf-8"))
    assert spanish_blocks, "README.es.md shows no commands"
    assert spanish_blocks == english_blocks[: len(spanish_blocks)], (
        "README.es.md's commands differ from README.md's"
    )


@pytest.mark.parametrize("page", [spanish(README), *SPANISH_PAGES], ids=rel)
def test_relative_links_in_a_spanish_page_reach_files_that_exist(page: Path) -> None:
    assert page.exists(), f"{rel(page)} is missing"
    assert broken_links(page) == [], f"broken links in {rel(page)}"


@pytest.mark.parametrize("page", [README, *ENGLISH_PAGES], ids=rel)
def test_the_english_and_spanish_pages_link_each_other(page: Path) -> None:
    assert links_to(page, spanish(page), "Leer en español:" if page == README else "En español:"), (
        f"{rel(page)} has no 'En español:' line linking {rel(spanish(page))}"
    )
    assert spanish(page).exists() and links_to(spanish(page), page, "In English:"), (
        f"{rel(spanish(page))} has no 'In English:' line linking {rel(page)}"
    )


def test_the_checks_see_what_they_check() -> None:
    """The block and link readers on a small page: a changed command or a dead link is seen."""
    page = "# t\n\n```sh\nrun it\n```\n\ntext [a](a.md) `[b](b.md)`\n\n    position: x\n    play: y\nend\n"
    blocks, prose = split(page)
    assert blocks == ["```sh\nrun it\n```", "    position: x\n    play: y"]
    assert "end" in prose and "run it" not in prose
    assert [m.group(1) for line in prose for m in LINK.finditer(INLINE_CODE.sub("", line))] == ["a.md"]
    assert slug("## 7. Text formats") == "7-text-formats"
    assert slug("### Texto de la posición") == "texto-de-la-posición"
