"""Grid regions: rows and columns of equal cells (a casting field, a table to write in), drawn
whatever the content says, each cell named by row letter and column number if asked, or the rows'
letters and the columns' numbers printed round the grid's edge, for players naming a space."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pnp.content.validate import FontSize
from pnp.regions.base import Placed
from pnp.render import fonts


class GridRegion(Placed):
    type: Literal["grid"]
    rows: int = Field(ge=1, le=26)  # a letter each
    columns: int = Field(ge=1, le=100)
    stroke: str = "ink"
    stroke_width: FontSize = Field(0.8, gt=0, le=10)
    fill: str | None = None
    alternate: str | None = None  # every other cell's fill, chequered; None: all cells alike
    label_size: FontSize = Field(0, ge=0, le=72)  # each cell's name (A1) in its top-left corner; 0: none
    colour: str = "ink"  # the names'
    # the rows' letters and the columns' numbers outside the grid, on every side, this size; 0: none.
    # Each side's read upright from that side: players sit all round a field.
    coordinates: FontSize = Field(0, ge=0, le=72)
    coordinates_gap: FontSize = Field(2, ge=0, le=72)  # from the grid's edge to the coordinates' nearest edge


def check(region: GridRegion, text: str) -> str | None:
    return None  # a grid takes no words


def fixed(region: GridRegion) -> bool:
    return True


def draw(canvas, region: GridRegion, text: str | None, x, y, w, h, ink) -> None:
    cell_w, cell_h = w / region.columns, h / region.rows
    canvas.setLineWidth(region.stroke_width)
    canvas.setStrokeColor(ink.colour(region.stroke))
    canvas.setFont(fonts.font_name("regular"), region.label_size or 1)
    pad = region.label_size * 0.4
    for row in range(region.rows):
        for col in range(region.columns):
            cx, cy = x + col * cell_w, y + h - (row + 1) * cell_h
            fill = region.alternate if region.alternate and (row + col) % 2 else region.fill
            fill = None if ink.saver else fill
            if fill:
                canvas.setFillColor(ink.colour(fill))
            canvas.rect(cx, cy, cell_w, cell_h, stroke=1, fill=int(bool(fill)))
            if region.label_size:
                canvas.setFillColor(ink.colour(region.colour))
                canvas.drawString(cx + pad, cy + cell_h - pad - region.label_size * 0.75, f"{chr(65 + row)}{col + 1}")
    if region.coordinates:
        draw_coordinates(canvas, region, x, y, w, h, ink)


def draw_coordinates(canvas, region: GridRegion, x, y, w, h, ink) -> None:
    """Column numbers below and above, row letters (A at the top) left and right, each side's
    turned to read upright for a player sitting on that side."""
    size, gap = region.coordinates, region.coordinates_gap
    cell_w, cell_h = w / region.columns, h / region.rows
    canvas.setFillColor(ink.colour(region.colour))
    canvas.setFont(fonts.font_name("bold"), size)
    reach = gap + size / 2  # from the grid's edge to a coordinate's middle
    labels = []  # (middle, turn in degrees, text)
    for col in range(region.columns):
        cx = x + (col + 0.5) * cell_w
        labels += [((cx, y - reach), 0, str(col + 1)), ((cx, y + h + reach), 180, str(col + 1))]
    for row in range(region.rows):
        cy = y + h - (row + 0.5) * cell_h
        labels += [((x - reach, cy), -90, chr(65 + row)), ((x + w + reach, cy), 90, chr(65 + row))]
    for (cx, cy), turn, text in labels:
        canvas.saveState()
        canvas.translate(cx, cy)
        canvas.rotate(turn)
        canvas.drawCentredString(0, -size * 0.35, text)  # 0.35: from a line's middle to its baseline
        canvas.restoreState()


MODEL = GridRegion
