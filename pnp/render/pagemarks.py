"""What every page carries for the person printing it: crop marks, scale bars, a label."""

from __future__ import annotations

from reportlab.lib.colors import black

from pnp.geometry import Rect
from pnp.render import fonts
from pnp.units import INCH, MM

SCALE_NOTE = "Print at 100% / actual size: each bar must measure exactly what it says."


def draw_crop_marks(canvas, segments, width: float) -> None:
    canvas.saveState()
    canvas.setStrokeColor(black)
    canvas.setLineWidth(width)
    for x0, y0, x1, y1 in segments:
        canvas.line(x0, y0, x1, y1)
    canvas.restoreState()


def _along(canvas, band: Rect) -> float:
    """Turn the canvas so that the band's long side runs along +x from its start; return its length."""
    if band.w >= band.h:
        canvas.translate(band.x, band.y)
        return band.w
    canvas.translate(band.right, band.y)  # a side band reads bottom to top
    canvas.rotate(90)
    return band.h


def draw_scale_bars(canvas, band: Rect, size: float) -> None:
    """A 50 mm bar ticked every 10 mm and a 2 in bar ticked every half inch, then the note."""
    canvas.saveState()
    length = _along(canvas, band)
    thickness = min(band.w, band.h)
    bar_h = thickness * 0.3
    canvas.setLineWidth(0.4)
    canvas.setStrokeColor(black)
    canvas.setFillColor(black)
    canvas.setFont(fonts.font_name("regular"), size)
    x = 0.0
    for total, step, name in ((50 * MM, 10 * MM, "50 mm"), (2 * INCH, 0.5 * INCH, "2 in")):
        canvas.rect(x, 0, total, bar_h, stroke=1, fill=0)
        for i in range(int(round(total / step))):
            if i % 2 == 0:
                canvas.rect(x + i * step, 0, step, bar_h, stroke=0, fill=1)
        canvas.drawString(x, bar_h + size * 0.4, f"{name}  (actual size)")
        x += total + 6 * MM
    if length - x > fonts.string_width(SCALE_NOTE, "regular", size):
        # level with the bars, but its descenders never below the band: that side may face a bleed
        canvas.drawString(x, max(bar_h / 2 - size * 0.3, size * fonts.descent("regular")), SCALE_NOTE)
    canvas.restoreState()


def draw_label(canvas, band: Rect, size: float, text: str) -> None:
    """The page's name: game, component, side and page number, centred in its band."""
    canvas.saveState()
    length = _along(canvas, band)
    canvas.setFillColor(black)
    canvas.setFont(fonts.font_name("regular"), size)
    canvas.drawCentredString(length / 2, (min(band.w, band.h) - size) / 2, text)
    canvas.restoreState()


def draw_blank_note(canvas, width: float, height: float, size: float, text: str) -> None:
    """A blank page's one line, small and grey in its middle: a page that is empty on purpose."""
    canvas.saveState()
    canvas.setFillGray(0.45)
    canvas.setFont(fonts.font_name("italic"), size)
    canvas.drawCentredString(width / 2, height / 2, text)
    canvas.restoreState()


def draw_fold_line(canvas, x: float, y0: float, y1: float) -> None:
    canvas.saveState()
    canvas.setLineWidth(0.5)
    canvas.setDash(4, 3)
    canvas.line(x, y0, x, y1)
    canvas.restoreState()
