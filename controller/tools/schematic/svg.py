"""A few SVG primitives shared by the drawn schematic, the templates and the perfboard plan, and
their conversion to PDF (svglib reads the SVG, reportlab writes the PDF)."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab import rl_config
from reportlab.graphics import renderPDF
from reportlab.pdfgen import canvas
from svglib.svglib import svg2rlg

rl_config.invariant = True  # no creation date or random document id: the same drawing, the same bytes
MM = 72 / 25.4  # PDF points per millimetre


class Svg:
    """An SVG document built line by line; coordinates in the document's user units."""

    def __init__(self) -> None:
        self.parts: list[tuple[float, float, str]] = []  # (x, y) where each element is, for cutting pages

    def add(self, element: str, x: float = 0.0, y: float = 0.0) -> None:
        self.parts.append((x, y, element))

    def text(self, x: float, y: float, s: str, size: float = 10, anchor: str = "start", weight: str = "normal",
             fill: str = "#000", cls: str = "") -> None:
        c = f' class="{cls}"' if cls else ""
        self.add(f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size:g}" text-anchor="{anchor}" '
                 f'font-weight="{weight}" fill="{fill}"{c}>{escape(s)}</text>', x, y)

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: str = "#333",
             width: float = 1.0, on_every_page: bool = False) -> None:
        at = math.nan if on_every_page else x
        self.add(f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" fill="{fill}" '
                 f'stroke="{stroke}" stroke-width="{width:g}"/>', at, y)

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#333", width: float = 1.0) -> None:
        self.add(f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" stroke="{stroke}" '
                 f'stroke-width="{width:g}"/>', x1, y1)

    def circle(self, x: float, y: float, r: float, fill: str = "none", stroke: str = "#333", width: float = 1.0,
               cls: str = "", title: str = "") -> None:
        c = f' class="{cls}"' if cls else ""
        t = f"<title>{escape(title)}</title>" if title else ""
        self.add(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:g}" fill="{fill}" stroke="{stroke}" '
                 f'stroke-width="{width:g}"{c}>{t}</circle>', x, y)

    def document(self, width: float, height: float, unit: str = "") -> str:
        """The whole document; with ``unit`` ("mm") one user unit is one of those."""
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}{unit}" height="{height:g}{unit}" '
                f'viewBox="0 0 {width:g} {height:g}" font-family="Helvetica, Arial, sans-serif">\n'
                f'<rect width="{width:g}" height="{height:g}" fill="white"/>\n'
                + "\n".join(e for _, _, e in self.parts) + "\n</svg>\n")

    def window(self, x0: float, y0: float, width: float, height: float, reach: float) -> str:
        """The piece of the document (user units in mm) from (x0, y0), ``width`` x ``height`` mm,
        with the elements that start within ``reach`` of it (those that may show in it)."""
        inside = [e for x, y, e in self.parts if math.isnan(x)
                  or (x0 - reach <= x <= x0 + width + reach and y0 - reach <= y <= y0 + height + reach)]
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}mm" height="{height:g}mm" '
                f'viewBox="{x0:g} {y0:g} {width:g} {height:g}" font-family="Helvetica, Arial, sans-serif">\n'
                + "\n".join(inside) + "\n</svg>\n")


def _drawing(svg_text: str) -> object:
    drawing = svg2rlg(io.BytesIO(svg_text.encode()))
    if drawing is None:
        raise ValueError("svglib could not read the drawing")
    return drawing


def pdf_page(svg_text: str, path: Path) -> None:
    """The SVG on one page of its own size."""
    renderPDF.drawToFile(_drawing(svg_text), str(path))


PageFurniture = Callable[[canvas.Canvas, int, float, float], None]
"""Draws on page n (from 0) of a tiled PDF, outside its tile: (canvas, n, page width, height in points)."""


def pdf_tiles(pages: list[str], path: Path, tile_mm: tuple[float, float], page_mm: tuple[float, float],
              furniture: PageFurniture | None = None) -> None:
    """True-scale SVG pieces (``Svg.window``, ``tile_mm`` each) on pages of ``page_mm``, centred, at 100 %."""
    pw, ph = page_mm
    tw, th = tile_mm
    mx, my = (pw - tw) / 2, (ph - th) / 2
    pdf = canvas.Canvas(str(path), pagesize=(pw * MM, ph * MM), invariant=1)
    for n, piece in enumerate(pages):
        pdf.saveState()
        clip = pdf.beginPath()
        clip.rect(mx * MM, my * MM, tw * MM, th * MM)
        pdf.clipPath(clip, stroke=0, fill=0)
        renderPDF.draw(_drawing(piece), pdf, mx * MM, my * MM)
        pdf.restoreState()
        if furniture:
            furniture(pdf, n, pw * MM, ph * MM)
        pdf.showPage()
    pdf.save()
