"""The reference boards' build files, generated from the layouts (``docs/build/``, issue 34).

- ``<game>.net.gz``: the KiCad netlist of the board (SKiDL; its electrical rules check must find no
  error), ``<game>-schematic.svg``/``.pdf``: the same drawn as blocks (``circuit``, ``drawing``);
- ``<game>-template.svg``/``.pdf``: the drilling template at true scale (``template``);
- ``sensor-module.net``, ``sensor-module-bom.csv``, ``sensor-module-perfboard.svg``: the module of
  eight hall switches and a 74HC165 that the presence chains repeat (``module``).

``python -m controller.tools.schematic`` writes them; ``tests/tools/test_schematic.py`` fails when a
committed one differs from what the layouts give.
"""

from __future__ import annotations

import gzip
import tempfile
from pathlib import Path

from controller.games import game_names

GAMES = tuple(game_names())
OUT_DIR = Path(__file__).resolve().parents[3] / "docs" / "build"


class ErcFailed(RuntimeError):
    """The electrical rules check found errors in a generated circuit."""


def outputs(games: tuple[str, ...] = GAMES, module: bool = True) -> dict[str, bytes]:
    """Every generated file's name and contents."""
    from controller.tools.schematic import circuit, drawing, template
    from controller.tools.schematic import module as sensor_module
    from controller.tools.schematic.svg import pdf_page
    from hardware.layout import load_layout

    files: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "out.pdf"
        for game in games:
            layout = load_layout(game)
            with circuit.new_circuit() as c:
                circuit.build(layout)
                errors, _ = circuit.erc(c)
                if errors:
                    raise ErcFailed(f"{game}: {errors} ERC errors")
                # gzip: a board's netlist is up to 1.2 MB of text (`gunzip -k` gives KiCad its .net)
                files[f"{game}.net.gz"] = gzip.compress(circuit.netlist(c, f"hardware/layouts/{game}.json").encode(),
                                                        mtime=0)
            picture = drawing.schematic_svg(layout)
            files[f"{game}-schematic.svg"] = picture.encode()
            pdf_page(picture, pdf)
            files[f"{game}-schematic.pdf"] = pdf.read_bytes()
            files[f"{game}-template.svg"] = template.template_svg(layout).encode()
            template.template_pdf(layout, pdf)
            files[f"{game}-template.pdf"] = pdf.read_bytes()
        if module:
            with circuit.new_circuit() as c:
                sensor_module.build()
                errors, _ = circuit.erc(c)
                if errors:
                    raise ErcFailed(f"sensor module: {errors} ERC errors")
                files["sensor-module.net"] = circuit.netlist(c, "controller/tools/schematic/module.py").encode()
                files["sensor-module-bom.csv"] = sensor_module.bom_csv(c).encode()
                files["sensor-module-perfboard.svg"] = sensor_module.perfboard_svg(c).encode()
    return files
