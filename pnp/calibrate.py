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

from pnp.components.templates import PageTemplate, load_templates
from pnp.document import page_style
from pnp.imposition import Paper, info_bands
from pnp.paths import TEMPLATES
from pnp.render import fonts
from pnp.render.pagemarks import draw_label, draw_scale_bars
from pnp.units import MM

REACH = 5  # mm either side of zero on each scale
ARM = 12 * MM  # half the length of each front line
INSET = 40 * MM  # corner targets' distance from the paper's left and right edges
CLEAR = 3 * MM  # between the words and the nearest line
TITLE, BODY = 14, 8  # font sizes
LABEL = 6  # pt, the scales' numbers: the smallest type printed anywhere
FIGURE = 0.714 * LABEL  # the height of Noto Sans' figures
ROWS = (5.6 * MM, 8.6 * MM)  # the middles of the numbers' two rows, this far from the scale's line
ROW_REACH = 1.5 * MM  # a second-row tick stops this short of its number's middle, clear of its figures
STEPS = (
    "1. Print both pages on one sheet, double-sided, at 100% / actual size, flipping as you will for cards.",
    "2. Hold the sheet to a light with the scales towards you; the lines on this side show through.",
    "3. Read where each line crosses its scale: X on the left-right scales, Y on the up-down ones.",
    "4. Build with those numbers, e.g. pnp build --offset 0.5,-1 (the centre target, or the average).",
)
BACK_NOTE = ("X grows to the right, Y grows upwards, in millimetres, as you look at this side.",)


def text_lines(paper: Paper, page: PageTemplate) -> list[float]:
    """Baselines of the title and the four lines under it, just below the label band."""
    top = paper.height - page.margin - page.info_band - CLEAR - TITLE
    return [top] + [top - (TITLE / 2 + CLEAR) - i * 5 * MM for i in range(1, len(STEPS) + 1)]


def targets(paper: Paper, page: PageTemplate) -> list[tuple[float, float]]:
    """The centre and four corners, the top ones clear of the words; symmetric about both of the
    paper's centre lines, so each target lands on one under either flip."""
    w, h = paper.width, paper.height
    high = text_lines(paper, page)[-1] - CLEAR - ARM - 2 * MM  # 2 mm: the words' descent
    low = h - high
    return [(w / 2, h / 2), (INSET, low), (w - INSET, low), (INSET, high), (w - INSET, high)]


def _words(canvas: Canvas, paper: Paper, page: PageTemplate, title: str, lines: tuple[str, ...]) -> None:
    title_at, *baselines = text_lines(paper, page)
    canvas.setFont(fonts.font_name("bold"), TITLE)
    canvas.drawCentredString(paper.width / 2, title_at, title)
    canvas.setFont(fonts.font_name("regular"), BODY)
    for line, y in zip(lines, baselines, strict=False):  # the back has fewer lines than room
        canvas.drawCentredString(paper.width / 2, y, line)


def _front(canvas: Canvas, paper: Paper, page: PageTemplate) -> None:
    canvas.setLineWidth(0.3)
    for x, y in targets(paper, page):
        canvas.line(x, y - ARM, x, y + ARM)
        canvas.line(x - ARM, y, x + ARM, y)
    _words(canvas, paper, page, "Duplex calibration: front", STEPS)


def _scale(canvas: Canvas, x: float, y: float, vertical: bool) -> None:
    """Ticks every 0.5 mm from -REACH to +REACH mm, growing right or up, and a number every 2 mm.

    Ticks and numbers point away from the target, clear of the front's other line. At LABEL pt a
    number is nearly 2 mm wide, so numbers side by side 2 mm apart would touch: they take turns
    between two rows (columns on an upright scale), 4 mm apart within a row, each at the end of its
    own tick (the second row's ticks reach past the first row's numbers)."""
    canvas.saveState()
    canvas.translate(x, y)
    if vertical:
        canvas.rotate(90)
    away = -1 if vertical else 1  # the side of the scale's line away from the target, in its own y
    canvas.setFont(fonts.font_name("regular"), LABEL)
    for half in range(-2 * REACH, 2 * REACH + 1):
        at = half * 0.5 * MM
        if half % 4:  # an unnumbered whole or half millimetre
            canvas.line(at, 0, at, away * (3 if half % 2 == 0 else 1.8) * MM)
            continue
        row = ROWS[(half // 4) % 2]
        canvas.line(at, 0, at, away * (4 * MM if row == ROWS[0] else row - ROW_REACH))
        label = str(half // 2)
        if vertical:  # keep the numbers upright on the page, centred on their ticks
            canvas.saveState()
            canvas.translate(at, -row)
            canvas.rotate(-90)
            canvas.drawCentredString(0, -FIGURE / 2, label)
            canvas.restoreState()
        else:
            canvas.drawCentredString(at, row - FIGURE / 2, label)
    canvas.line(-REACH * MM, 0, REACH * MM, 0)
    canvas.restoreState()


def _back(canvas: Canvas, paper: Paper, page: PageTemplate) -> None:
    canvas.setLineWidth(0.25)
    canvas.setStrokeColor(black)
    for x, y in targets(paper, page):
        _scale(canvas, x, y + 8 * MM, vertical=False)  # crossed by the front's vertical line: X
        _scale(canvas, x + 8 * MM, y, vertical=True)  # crossed by the front's horizontal line: Y
    _words(canvas, paper, page, "Duplex calibration: back (read here)", BACK_NOTE)


def write_calibration(path: Path, paper: Paper) -> Path:
    page: PageTemplate = load_templates(TEMPLATES)["page"]
    scale, label = info_bands(paper.width, paper.height, page_style(page), "y")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        canvas = fonts.new_canvas(str(tmp), pagesize=(paper.width, paper.height))
        canvas.setTitle("Spellpress duplex calibration")
        for number, draw in enumerate((_front, _back), 1):
            draw(canvas, paper, page)
            draw_scale_bars(canvas, scale, page.info_size)
            draw_label(
                canvas, label, page.info_size, f"Spellpress duplex calibration · {paper.name} · page {number} of 2"
            )
            canvas.showPage()
        canvas.save()
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
