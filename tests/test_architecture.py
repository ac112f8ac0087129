"""Imports flow one way (issue 20): no circle among arbitro's modules; inside each game package
``board <- actions <- position <- rules <- views <- state <- words <- __init__``, with ``picture <- board``;
engines (``controller/games/**``) free of I/O, clocks, randomness and the rest of arbitro; the pure
session free of the hardware side; the display reaching a game only through the registry; the
hardware side free of the controller; no source file over the house's 650 lines.

The checks read the source (``ast``), so they see lazy imports inside functions too. An import
under ``if TYPE_CHECKING:`` runs nothing, so it brings no I/O or randomness in; it is still a
dependency, so it counts for circles and for the direction of a game package's layers."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from controller.games.registry import ENGINES

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("controller", "firmware_bridge", "hardware")
GAMES_PACKAGE = "controller.games"

LAYERS = ("board", "actions", "position", "rules", "views", "state", "words", "__init__")
"""A game package's modules, lowest first: each imports only modules before it in its package."""
PICTURE_MAY_IMPORT = frozenset({"board"})
"""The picture hangs off the board alone (it draws the public view, not the engine's state)."""

CLOCK_AND_RANDOM = frozenset({"time", "random", "datetime"})
IO_MODULES = frozenset({
    "aiohttp", "asyncio", "concurrent", "gpiozero", "http", "io", "logging", "multiprocessing", "neopixel",
    "os", "paho", "pathlib", "select", "selectors", "serial", "shutil", "signal", "socket", "sqlite3", "ssl",
    "subprocess", "sys", "tempfile", "threading", "urllib",
})
READS_ITS_TABLES = frozenset({("board", "pathlib")})
"""A game's board may read the fixed tables shipped beside it (``bridges.json``, ``layout.json``)."""

MAX_LINES = 650
SIZED = ("controller", "firmware_bridge", "hardware", "bench")
SOURCE_SUFFIXES = frozenset({".py", ".js", ".html", ".css"})
"""What is written by hand, and so held to ``MAX_LINES``; generated data (the board layouts, the
gettext catalogues, the pages' ``i18n.json``) is as long as what it lists."""


@dataclass(frozen=True)
class Import:
    source: str
    """The importing module (dotted)."""
    target: str
    """The imported module: a first-party module of the tree, else the dotted name as written."""
    line: int
    typing_only: bool
    """Under ``if TYPE_CHECKING:``: seen by mypy, never run."""

    def __str__(self) -> str:
        return f"{self.source} (line {self.line}) imports {self.target}"


def modules_under(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module of ``packages`` under ``root``, by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(tree: ast.AST, typing_only: bool = False) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, typing_only
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                yield from _import_nodes(ast.Module(body=[child], type_ignores=[]), True)
            for child in node.orelse:
                yield from _import_nodes(ast.Module(body=[child], type_ignores=[]), typing_only)
        else:
            yield from _import_nodes(node, typing_only)


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    """What module ``name`` (the file ``path``) imports; ``from pkg import sub`` names the module ``pkg.sub``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node, typing_only in _import_nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base == "__future__":
                continue
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        for target in dict.fromkeys(targets):
            while target not in modules and "." in target and target.split(".")[0] in modules:
                target = target.rpartition(".")[0]  # an attribute of a first-party module: the module
            found.append(Import(name, target, node.lineno, typing_only))
    return found


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> list[Import]:
    modules = modules_under(root, packages)
    return [imp for name, path in modules.items() for imp in imports_of(name, path, modules)]


def import_circles(imports: list[Import]) -> list[list[str]]:
    """The groups of modules that import each other, round a circle."""
    edges: dict[str, set[str]] = {}
    for imp in imports:
        if imp.target != imp.source:
            edges.setdefault(imp.source, set()).add(imp.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return circles


def game_packages(imports: list[Import]) -> list[str]:
    """The game packages: ``controller.games.<game>`` holding a ``state`` module."""
    return sorted({imp.source.rpartition(".")[0] for imp in imports
                   if imp.source.startswith(GAMES_PACKAGE + ".") and imp.source.endswith(".state")})


def _layer(package: str, module: str) -> str | None:
    """The module's place in ``package`` (``board``, ..., ``__init__``, ``picture``), None outside it."""
    if module == package:
        return "__init__"
    head, _, last = module.rpartition(".")
    return last if head == package else None


def upward_imports(imports: list[Import], package: str) -> list[Import]:
    """Imports inside game ``package`` that go against ``board <- ... <- __init__`` (``picture <- board``)."""
    wrong = []
    for imp in imports:
        source, target = _layer(package, imp.source), _layer(package, imp.target)
        if source is None or target is None:
            continue
        if source == "picture":
            allowed = PICTURE_MAY_IMPORT
        elif source in LAYERS:
            allowed = frozenset(LAYERS[: LAYERS.index(source)]) | ({"picture"} if source == "__init__" else set())
        else:
            continue  # a module outside the shape (a generator run by hand, a shim) is judged by its users
        if target not in allowed:
            wrong.append(imp)
    return wrong


def impure_engine_imports(imports: list[Import]) -> list[Import]:
    """Engine modules (``controller/games/**``) importing I/O, a clock, randomness or arbitro outside the games."""
    wrong = []
    for imp in imports:
        if imp.typing_only or not (imp.source == GAMES_PACKAGE or imp.source.startswith(GAMES_PACKAGE + ".")):
            continue
        top = imp.target.split(".")[0]
        if top in PACKAGES:
            if not (imp.target == GAMES_PACKAGE or imp.target.startswith(GAMES_PACKAGE + ".")):
                wrong.append(imp)
        elif top in CLOCK_AND_RANDOM or (top in IO_MODULES
                                         and (imp.source.rpartition(".")[2], top) not in READS_ITS_TABLES):
            wrong.append(imp)
    return wrong


def imports_from(imports: list[Import], source_prefix: str, target_prefixes: tuple[str, ...]) -> list[Import]:
    """Imports by ``source_prefix`` (a module, or a package and its modules) of anything under ``target_prefixes``."""
    def under(name: str, prefix: str) -> bool:
        return name == prefix or name.startswith(prefix + ".")

    return [imp for imp in imports
            if under(imp.source, source_prefix) and any(under(imp.target, t) for t in target_prefixes)]


def display_game_imports(imports: list[Import]) -> list[Import]:
    """``controller/display`` importing a game package (it should ask ``controller.games.registry``)."""
    return imports_from(imports, "controller.display", tuple(game_packages(imports)))


def long_files(root: Path = ROOT, folders: tuple[str, ...] = SIZED, limit: int = MAX_LINES) -> list[str]:
    """Source files under ``folders`` longer than ``limit`` lines: ``path (N lines)``."""
    found = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in SOURCE_SUFFIXES and path.is_file():
                lines = len(path.read_text(encoding="utf-8").splitlines())
                if lines > limit:
                    found.append(f"{path.relative_to(root)} ({lines} lines)")
    return found


GRAPH = import_graph()

NAMES_GAMES = ("controller/games", "controller/players")
"""Where a game may be named in code; everywhere else games come from the registry."""


def game_names_in_code(root: Path = ROOT) -> list[str]:
    """String literals (not docstrings, not comments) naming a game, in controller/ outside
    :data:`NAMES_GAMES`: ``path:line``."""
    games = [p.name for p in (root / "controller" / "games").iterdir() if (p / "__init__.py").is_file()]
    found = []
    for path in sorted((root / "controller").rglob("*.py")):
        if any(path.is_relative_to(root / allowed) for allowed in NAMES_GAMES):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings and \
                    any(re.search(rf"\b{game}\b", node.value.lower()) for game in games):
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def _lines(found: list[Import]) -> str:
    return "\n".join(str(imp) for imp in found)


def test_the_tree_is_read() -> None:
    modules = {imp.source for imp in GRAPH}
    assert {"controller.session", "controller.games.base", "firmware_bridge.link", "hardware.leds"} <= modules
    assert game_packages(GRAPH) == sorted(ENGINES.values()), "every registered game, and no other package"


def test_no_import_circle() -> None:
    assert import_circles(GRAPH) == [], "modules that import each other"


@pytest.mark.parametrize("package", game_packages(GRAPH))
def test_a_game_package_imports_downward_only(package: str) -> None:
    wrong = upward_imports(GRAPH, package)
    assert not wrong, f"upward imports (order {' <- '.join(LAYERS)}, picture <- board):\n{_lines(wrong)}"


def test_engines_import_no_io_clock_randomness_or_the_rest_of_arbitro() -> None:
    wrong = impure_engine_imports(GRAPH)
    assert not wrong, _lines(wrong)


def test_the_session_imports_nothing_of_the_hardware_side() -> None:
    wrong = imports_from(GRAPH, "controller.session", ("firmware_bridge", "hardware"))
    assert not wrong, _lines(wrong)


def test_the_display_reaches_games_only_through_the_registry() -> None:
    wrong = display_game_imports(GRAPH)
    assert not wrong, _lines(wrong)


def test_the_hardware_side_imports_nothing_of_the_controller() -> None:
    wrong = imports_from(GRAPH, "hardware", ("controller",))
    assert not wrong, _lines(wrong)


def test_no_module_outside_the_games_and_the_players_names_a_game() -> None:
    assert game_names_in_code() == []


def test_no_source_file_is_over_650_lines() -> None:
    found = long_files()
    assert not found, f"cut each by its concerns into modules of at most {MAX_LINES} lines:\n" + "\n".join(found)


def _plant(root: Path, files: dict[str, str]) -> list[Import]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return import_graph(root)


def test_the_checks_find_planted_faults(tmp_path: Path) -> None:
    game = "controller/games/dice"
    graph = _plant(tmp_path, {
        "controller/__init__.py": "", "controller/games/__init__.py": "", "controller/games/registry.py": "",
        "hardware/__init__.py": "", "hardware/leds.py": "", "firmware_bridge/__init__.py": "",
        "bench/__init__.py": "", "bench/long.py": "x = 1\n" * 651, "bench/page.html": "<p>\n" * 651,
        "bench/data.json": "[]\n" * 651, "bench/short.py": "x = 1\n" * 650,
        f"{game}/__init__.py": "from controller.games.dice.state import S\nfrom . import picture\n",
        f"{game}/board.py": "from controller.games.dice import rules\nimport time\n",
        f"{game}/actions.py": "from .board import SIDES\nimport pathlib\n",
        f"{game}/position.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .views import V\n",
        f"{game}/rules.py": "from controller.games.dice import board\nfrom controller import session\n",
        f"{game}/views.py": "def later():\n    import random\n",
        f"{game}/state.py": "from controller.games.dice import views, rules\n",
        f"{game}/picture.py": "from controller.games.dice.actions import roll_text\n",
        "controller/session.py": "from hardware.leds import LedStrip\n",
        "hardware/layout.py": "def later():\n    from controller.games import registry\n",
        "controller/display/__init__.py": "",
        "controller/display/render.py": "from controller.games.registry import get_game\n"
                                        "from controller.games.dice import picture\n",
    })
    assert import_circles(graph) == [["controller.games.dice.board", "controller.games.dice.rules"]]
    assert [str(i) for i in upward_imports(graph, "controller.games.dice")] == [
        "controller.games.dice.board (line 1) imports controller.games.dice.rules",
        "controller.games.dice.picture (line 1) imports controller.games.dice.actions",
        "controller.games.dice.position (line 3) imports controller.games.dice.views",
    ]
    assert [str(i) for i in impure_engine_imports(graph)] == [
        "controller.games.dice.actions (line 2) imports pathlib",
        "controller.games.dice.board (line 2) imports time",
        "controller.games.dice.rules (line 2) imports controller.session",
        "controller.games.dice.views (line 2) imports random",
    ]
    assert [str(i) for i in imports_from(graph, "controller.session", ("firmware_bridge", "hardware"))] == [
        "controller.session (line 1) imports hardware.leds"]
    assert [str(i) for i in display_game_imports(graph)] == [
        "controller.display.render (line 2) imports controller.games.dice.picture"]
    assert [str(i) for i in imports_from(graph, "hardware", ("controller",))] == [
        "hardware.layout (line 2) imports controller.games.registry"]
    assert long_files(tmp_path) == ["bench/long.py (651 lines)", "bench/page.html (651 lines)"]
