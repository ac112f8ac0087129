"""A few SVG primitives shared by the drawn schematic, the templates and the perfboard plan, and
their conversion to PDF (svglib reads the SVG, reportlab writes the PDF)."""

from __future__ import annotations

import io
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
        self.parts: list[str] = []

    def add(self, element: str) -> None:
        self.parts.append(element)

    def text(self, x: float, y: float, s: str, size: float = 10, anchor: str = "start", weight: str = "normal",
             fill: str = "#000", cls: str = "") -> None:
        c = f' class="{cls}"' if cls else ""
        self.add(f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size:g}" text-anchor="{anchor}" '
                 f'font-weight="{weight}" fill="{fill}"{c}>{escape(s)}</text>')

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: str = "#333",
             width: float = 1.0) -> None:
        self.add(f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" fill="{fill}" '
                 f'stroke="{stroke}" stroke-width="{width:g}"/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#333", width: float = 1.0) -> None:
        self.add(f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" stroke="{stroke}" '
                 f'stroke-width="{width:g}"/>')

    def circle(self, x: float, y: float, r: float, fill: str = "none", stroke: str = "#333", width: float = 1.0,
               cls: str = "", title: str = "") -> None:
        c = f' class="{cls}"' if cls else ""
        t = f"<title>{escape(title)}</title>" if title else ""
        self.add(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:g}" fill="{fill}" stroke="{stroke}" '
                 f'stroke-width="{width:g}"{c}>{t}</circle>')

    def document(self, width: float, height: float, unit: str = "") -> str:
        """The whole document; with ``unit`` ("mm") one user unit is one of those."""
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}{unit}" height="{height:g}{unit}" '
                f'viewBox="0 0 {width:g} {height:g}" font-family="Helvetica, Arial, sans-serif">\n'
                f'<rect width="{width:g}" height="{height:g}" fill="white"/>\n' + "\n".join(self.parts) + "\n</svg>\n")


def _drawing(svg_text: str) -> object:
    drawing = svg2rlg(io.BytesIO(svg_text.encode()))
    if drawing is None:
        raise ValueError("svglib could not read the drawing")
    return drawing


def pdf_page(svg_text: str, path: Path) -> None:
    """The SVG on one page of its own size."""
    renderPDF.drawToFile(_drawing(svg_text), str(path))


def pdf_tiles(svg_text: str, path: Path, tiles: list[tuple[float, float]], tile_mm: tuple[float, float],
              page_mm: tuple[float, float]) -> None:
    """A true-scale SVG (user units in mm) cut into pages of ``page_mm``: each page shows the
    ``tile_mm`` area whose top-left corner (mm, in the SVG) is one of ``tiles``, centred, at 100 %."""
    drawing = _drawing(svg_text)
    height = float(drawing.height) / MM  # type: ignore[attr-defined]
    pw, ph = page_mm
    tw, th = tile_mm
    mx, my = (pw - tw) / 2, (ph - th) / 2
    pdf = canvas.Canvas(str(path), pagesize=(pw * MM, ph * MM), invariant=1)
    for x0, y0 in tiles:
        pdf.saveState()
        clip = pdf.beginPath()
        clip.rect(mx * MM, my * MM, tw * MM, th * MM)
        pdf.clipPath(clip, stroke=0, fill=0)
        # reportlab's y runs up from the page's foot; the SVG's down from its top
        renderPDF.draw(drawing, pdf, (mx - x0) * MM, (my + th - (height - y0)) * MM)
        pdf.restoreState()
        pdf.showPage()
    pdf.save()
