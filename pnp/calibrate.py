"""A duplex calibration sheet: lines on the front, scales on the back where those lines should land.

Hold the printed sheet to the light, scales towards you: where a front line crosses its scale is
how far the printer moved the back; that number, passed as --offset X,Y, moves it back.
The targets sit where they map onto each other under either flip, so one sheet serves both.
"""

from __future__ import annotations

import os
from pathlib import Path

from reportlab.lib.colors import black
from reportlab.pdfgen.canvas import Canvas

from pnp.geometry import Rect
from pnp.imposition import Paper
from pnp.render import fonts
from pnp.render.pagemarks import draw_label, draw_scale_bars
from pnp.units import MM

REACH = 5  # mm either side of zero on each scale
INSET = 40 * MM  # corner targets' distance from the paper's edges
STEPS = (
    "1. Print both pages on one sheet, double-sided, at 100% / actual size, flipping as you will for cards.",
    "2. Hold the sheet to a light with the scales towards you; the lines on this side show through.",
    "3. Read where each line crosses its scale: X on the left-right scales, Y on the up-down ones.",
    "4. Build with those numbers, e.g. pnp build --offset 0.5,-1 (the centre target, or the average).",
)


def targets(paper: Paper) -> list[tuple[float, float]]:
    w, h = paper.width, paper.height
    return [(w / 2, h / 2), (INSET, INSET), (w - INSET, INSET), (INSET, h - INSET), (w - INSET, h - INSET)]


def _front(canvas: Canvas, paper: Paper) -> None:
    canvas.setLineWidth(0.3)
    for x, y in targets(paper):
        canvas.line(x, y - 12 * MM, x, y + 12 * MM)
        canvas.line(x - 12 * MM, y, x + 12 * MM, y)
    canvas.setFont(fonts.font_name("bold"), 14)
    canvas.drawCentredString(paper.width / 2, paper.height - 22 * MM, "Duplex calibration: front")
    canvas.setFont(fonts.font_name("regular"), 8)
    for i, step in enumerate(STEPS):
        canvas.drawCentredString(paper.width / 2, paper.height - (30 + 5 * i) * MM, step)


def _scale(canvas: Canvas, x: float, y: float, vertical: bool) -> None:
    """Ticks every 0.5 mm from -REACH to +REACH mm, numbers every 2 mm, growing right or up."""
    canvas.saveState()
    canvas.translate(x, y)
    if vertical:
        canvas.rotate(90)
    canvas.setFont(fonts.font_name("regular"), 4)  # labels 2 mm apart must not touch
    for half in range(-2 * REACH, 2 * REACH + 1):
        at = half * 0.5 * MM
        tall = (4 if half % 4 == 0 else 3 if half % 2 == 0 else 1.8) * MM
        canvas.line(at, -tall, at, 0)
        if half % 4 == 0:
            label = str(half // 2)
            if vertical:  # keep the numbers upright on the page
                canvas.saveState()
                canvas.translate(at, -6 * MM)
                canvas.rotate(-90)
                canvas.drawCentredString(0, -1.5, label)
                canvas.restoreState()
            else:
                canvas.drawCentredString(at, -6.2 * MM, label)
    canvas.line(-REACH * MM, 0, REACH * MM, 0)
    canvas.restoreState()


def _back(canvas: Canvas, paper: Paper) -> None:
    canvas.setLineWidth(0.25)
    canvas.setStrokeColor(black)
    for x, y in targets(paper):
        _scale(canvas, x, y + 8 * MM, vertical=False)  # crossed by the front's vertical line: X
        _scale(canvas, x + 8 * MM, y, vertical=True)  # crossed by the front's horizontal line: Y
    canvas.setFont(fonts.font_name("bold"), 14)
    canvas.drawCentredString(paper.width / 2, paper.height - 22 * MM, "Duplex calibration: back (read here)")
    canvas.setFont(fonts.font_name("regular"), 8)
    canvas.drawCentredString(
        paper.width / 2,
        paper.height - 30 * MM,
        "X grows to the right, Y grows upwards, in millimetres, as you look at this side.",
    )


def write_calibration(path: Path, paper: Paper) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        canvas = fonts.new_canvas(str(tmp), pagesize=(paper.width, paper.height))
        canvas.setTitle("Spellpress duplex calibration")
        margin, band = 3 * MM, 6 * MM
        for number, draw in enumerate((_front, _back), 1):
            draw(canvas, paper)
            draw_scale_bars(canvas, Rect(margin, margin, paper.width - 2 * margin, band), 6.5)
            draw_label(
                canvas,
                Rect(margin, paper.height - margin - band, paper.width - 2 * margin, band),
                6.5,
                f"Spellpress duplex calibration · {paper.name} · page {number} of 2",
            )
            canvas.showPage()
        canvas.save()
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
