"""Track regions: numbered spaces (spirit, score) a bead moves along, written "FROM-TO start N"."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from pnp.content.validate import FontSize, Length
from pnp.regions.base import Placed
from pnp.render import fonts
from pnp.render.icons import stamp_icon

MAX_SPACES = 100  # more would be unreadable on any card; also bounds the drawing work


class TrackRegion(Placed):
    type: Literal["track"]
    columns: int = Field(ge=1, le=MAX_SPACES)
    gap: Length = Field(0.0, ge=0, le=100)
    size: FontSize = Field(gt=0, le=200)
    colour: str = "ink"
    fill: str | None = None
    stroke: str = "ink"
    stroke_width: FontSize = Field(0.8, gt=0, le=10)
    highlight: str = "gold"  # the starting space
    corner: float = Field(0.18, ge=0, le=0.5)  # corner radius, as a fraction of a space's shorter side
    star: float = Field(0.55, ge=0, le=1)  # the start space's star, as a fraction of the number's size


def parse(text: str) -> tuple[int, int, int] | None:
    """ "0-15 start 5" -> (0, 15, 5); None when it is not written that way or start is off the track."""
    match = re.fullmatch(r"\s*(\d{1,4})\s*-\s*(\d{1,4})\s+start\s+(\d{1,4})\s*", text)
    if not match:
        return None
    low, high, start = map(int, match.groups())
    return (low, high, start) if low <= start <= high else None


def check(region: TrackRegion, text: str) -> str | None:
    track = parse(text)
    if track is None:
        return f"expected a track written FROM-TO start N with N on the track, got {text!r}"
    if track[1] - track[0] + 1 > MAX_SPACES:
        return f"expected a track of at most {MAX_SPACES} spaces, got {track[1] - track[0] + 1}"
    return None


def fixed(region: TrackRegion) -> bool:
    return False  # drawn from the content's value


def draw(canvas, region: TrackRegion, text: str | None, x, y, w, h, ink) -> None:
    """Numbered spaces left to right, top to bottom; the start space highlighted and starred."""
    if text is None:
        return
    low, high, start = parse(text)
    count, cols, gap = high - low + 1, region.columns, region.gap
    rows = -(-count // cols)
    cell_w, cell_h = (w - (cols - 1) * gap) / cols, (h - (rows - 1) * gap) / rows
    canvas.setLineWidth(region.stroke_width)
    canvas.setStrokeColor(ink.colour(region.stroke))
    for i, number in enumerate(range(low, high + 1)):
        r, c = divmod(i, cols)
        cx, cy = x + c * (cell_w + gap), y + h - (r + 1) * cell_h - r * gap
        fill = (region.highlight if number == start else region.fill) if not ink.saver else None
        if fill:
            canvas.setFillColor(ink.colour(fill))
        canvas.roundRect(cx, cy, cell_w, cell_h, min(cell_w, cell_h) * region.corner, stroke=1, fill=int(bool(fill)))
        canvas.setFillColor(ink.colour(region.colour))
        canvas.setFont(fonts.font_name("bold"), region.size)
        canvas.drawCentredString(cx + cell_w / 2, cy + cell_h / 2 - region.size * 0.35, str(number))
        if number == start:
            star = region.size * region.star
            stamp_icon(canvas, "star", cx + cell_w - star - 1, cy + cell_h - star - 1, star)


MODEL = TrackRegion
