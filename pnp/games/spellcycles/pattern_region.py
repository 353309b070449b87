"""Pattern regions: a spell's pattern as a diagram, rows of cells on a visible grid, each cell as
large as the box allows, drawn as the rows are written (never turned), so "left of" and "above"
on the card are left of and above on the field.

The content gives the pattern as text, a row a line, cells parted by " | ":
    blue B water | vacant empty | yellow Y star
    red R fire + blue B water | marked any piece | gap anything
A piece is its ink (a colour name of the template), its letter and its symbol (an icon); pieces
joined by "+" are a stack, bottom first. `vacant`, `marked` and `gap` are the markers, each
followed by the word printed in its cell when the cell has room for it at the region's size.
Every colour cell carries its letter and symbol as well as its ink, so a greyscale print reads.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Literal

from pydantic import Field
from reportlab.lib.colors import white

from pnp.content.markup import ICON_NAMES
from pnp.content.validate import FontSize, Length
from pnp.regions.base import Placed
from pnp.render import fonts
from pnp.render.colours import legible_on
from pnp.render.icons import stamp_icon

MARKERS = ("vacant", "marked", "gap")
MAX_SIDE = 12  # rows or columns: more would not be legible on any card; also bounds the drawing
_PIECE = re.compile(r"^([a-z][a-z0-9_-]*) ([A-Z]) ([a-z][a-z0-9_-]*)$")


class PatternRegion(Placed):
    type: Literal["pattern"]
    max_cell: Length = Field(gt=0, le=1000)  # a cell's side at most: a one-cell spell is not a poster
    board: str = "white"  # the grid's cells
    stroke: str = "ink"  # the grid's lines
    stroke_width: FontSize = Field(1.0, gt=0, le=10)
    size: FontSize = Field(7, gt=0, le=72)  # a marker's word; a letter is at least this size
    dark: str = "ink"  # a letter and symbol on a light piece, and the markers' strokes
    light: str = "white"  # ... on a dark piece
    inset: float = Field(0.08, ge=0, le=0.3)  # a piece's margin inside its cell, a fraction of the cell


@dataclass(frozen=True)
class Piece:
    ink: str
    letter: str
    icon: str


@dataclass(frozen=True)
class Marker:
    kind: str  # one of MARKERS
    word: str


Cell = tuple[Piece, ...] | Marker  # a colour is a stack of one


def parse(text: str) -> list[list[Cell]] | str:
    """The rows of cells, or what is wrong with the text, as a message."""
    rows: list[list[Cell]] = []
    for line in text.strip().split("\n"):
        row: list[Cell] = []
        for cell in (c.strip() for c in line.split("|")):
            kind, _, word = cell.partition(" ")
            if kind in MARKERS:
                row.append(Marker(kind, word.strip()))
                continue
            pieces = [_PIECE.match(" ".join(p.split())) for p in cell.split("+")]
            if not all(pieces):
                markers = ", ".join(MARKERS)
                return f"a cell written as a marker ({markers}) or pieces 'ink LETTER icon' joined by '+', got {cell!r}"
            unknown = [m[3] for m in pieces if m[3] not in ICON_NAMES]
            if unknown:
                return f"an icon we have ({', '.join(ICON_NAMES)}), got {unknown[0]!r}"
            row.append(tuple(Piece(*m.groups()) for m in pieces))
        rows.append(row)
    return rows


def check(region: PatternRegion, text: str) -> str | None:
    rows = parse(text)
    if isinstance(rows, str):
        return f"expected {rows}"
    if len({len(row) for row in rows}) != 1:
        return f"expected rows of one length, got rows of {', '.join(str(len(r)) for r in rows)} cells"
    if max(len(rows), len(rows[0])) > MAX_SIDE:
        return f"expected a pattern of at most {MAX_SIDE} x {MAX_SIDE} cells, got {len(rows)} x {len(rows[0])}"
    return None


def fixed(region: PatternRegion) -> bool:
    return False  # drawn from the content's value


def layout(rows: int, columns: int, w: float, h: float, max_cell: float) -> tuple[float, float, float]:
    """(the cell's side, the grid's left and bottom offsets in the box): cells as large as fit,
    the grid centred. Shared with the tests that find the cells on a rendered card."""
    cell = min(w / columns, h / rows, max_cell)
    return cell, (w - cell * columns) / 2, (h - cell * rows) / 2


def draw(canvas, region: PatternRegion, text: str | None, x, y, w, h, ink) -> None:
    if text is None:
        return
    rows = parse(text)
    cell, dx, dy = layout(len(rows), len(rows[0]), w, h, region.max_cell)
    left, top = x + dx, y + dy + cell * len(rows)
    for r, row in enumerate(rows):
        for c, content in enumerate(row):
            cx, cy = left + c * cell, top - (r + 1) * cell
            if not ink.saver:
                canvas.setFillColor(ink.colour(region.board))
                canvas.rect(cx, cy, cell, cell, stroke=0, fill=1)
            if isinstance(content, Marker):
                _MARKERS[content.kind](canvas, region, content.word, cx, cy, cell, ink)
            else:
                _stack(canvas, region, content, cx, cy, cell, ink)
    # the grid last, over every cell: gaps are drawn dotted, so the lines around them are redrawn
    canvas.setStrokeColor(ink.colour(region.stroke))
    canvas.setLineWidth(region.stroke_width)
    canvas.setDash()
    for r, row in enumerate(rows):
        for c, content in enumerate(row):
            if not (isinstance(content, Marker) and content.kind == "gap"):
                canvas.rect(left + c * cell, top - (r + 1) * cell, cell, cell, stroke=1, fill=0)


def _stack(canvas, region: PatternRegion, pieces: tuple[Piece, ...], x, y, cell, ink) -> None:
    """One piece fills the inset square, its symbol above its letter; a stack splits the square
    into bands, the first piece at the bottom, each band with its symbol beside its letter."""
    margin = cell * region.inset
    side = cell - 2 * margin
    band = side / len(pieces)
    dark, light = ink.colour(region.dark), ink.colour(region.light)
    for i, piece in enumerate(pieces):
        bx, by = x + margin, y + margin + i * band
        colour = ink.colour(piece.ink)
        canvas.setFillColor(colour)
        canvas.setStrokeColor(dark)
        canvas.setLineWidth(region.stroke_width * 0.6)
        canvas.rect(bx, by, side, band, stroke=1, fill=0 if ink.saver else 1)
        mark = dark if ink.saver else legible_on(colour, dark, light)
        letter = max(region.size, min(band * 0.42, side * 0.3))
        icon = min(band - letter * 1.1, side * 0.55)
        if len(pieces) == 1 and icon >= letter:
            gap = (band - icon - letter * 0.75) / 3
            stamp_icon(canvas, piece.icon, bx + (side - icon) / 2, by + band - gap - icon, icon, mark)
            _letter(canvas, piece.letter, bx + side / 2, by + gap, letter, mark)
            continue
        icon, letter = min(band * 0.7, side * 0.35), max(region.size, min(band * 0.6, side * 0.3))
        start = bx + (side - icon - letter * 0.9) / 2  # the pair centred in the band
        stamp_icon(canvas, piece.icon, start, by + (band - icon) / 2, icon, mark)
        _letter(canvas, piece.letter, start + icon + letter * 0.5, by + (band - letter * 0.72) / 2, letter, mark)


def _letter(canvas, letter: str, cx, baseline, size, colour) -> None:
    canvas.setFillColor(colour)
    canvas.setFont(fonts.font_name("bold"), size)
    canvas.drawCentredString(cx, baseline, letter)


def _word(canvas, region: PatternRegion, word: str, x, y, cell, ink, plate: bool = False) -> None:
    """The marker's word across the cell's lower part, on one line or two, when it fits at the
    region's size; on a paper plate when it sits on strokes."""
    if not word:
        return
    size, room = region.size, cell * 0.9
    lines = [word]
    if fonts.string_width(word, "bold", size) > room:
        lines = word.split(" ", 1) if " " in word else lines
    if any(fonts.string_width(line, "bold", size) > room for line in lines) or len(lines) * size * 1.1 > cell * 0.45:
        return  # too small a cell: the symbol alone says it, as the key on the reference card does
    leading = size * 1.05
    bottom = y + cell * 0.08
    if plate:  # the board's colour; paper in ink-saver mode, where the board is not filled
        width = max(fonts.string_width(line, "bold", size) for line in lines) + size * 0.6
        canvas.setFillColor(white if ink.saver else ink.colour(region.board))
        height = leading * len(lines) + size * 0.1
        canvas.rect(x + (cell - width) / 2, bottom - size * 0.3, width, height, stroke=0, fill=1)
    canvas.setFillColor(ink.colour(region.dark))
    canvas.setFont(fonts.font_name("bold"), size)
    for i, line in enumerate(reversed(lines)):
        canvas.drawCentredString(x + cell / 2, bottom + i * leading, line)


def _vacant(canvas, region: PatternRegion, word: str, x, y, cell, ink) -> None:
    """An empty ring: this space must hold nothing."""
    canvas.setStrokeColor(ink.colour(region.dark))
    canvas.setLineWidth(max(region.stroke_width * 1.4, cell * 0.035))
    r = cell * 0.22
    canvas.circle(x + cell / 2, y + cell * 0.6, r, stroke=1, fill=0)
    _word(canvas, region, word, x, y, cell, ink)


def _marked(canvas, region: PatternRegion, word: str, x, y, cell, ink) -> None:
    """Hatched (any colour will do) under a bold cross: the piece here is the one the effect names."""
    margin = cell * region.inset
    p = canvas.beginPath()
    p.rect(x + margin, y + margin, cell - 2 * margin, cell - 2 * margin)
    canvas.saveState()
    canvas.clipPath(p, stroke=0, fill=0)
    canvas.setStrokeColor(ink.colour(region.dark))
    canvas.setLineWidth(max(0.4, cell * 0.012))
    step = cell / 7
    for i in range(-7, 8):
        canvas.line(x + i * step, y, x + i * step + cell, y + cell)
    canvas.restoreState()
    canvas.setLineWidth(max(region.stroke_width * 2.5, cell * 0.07))
    canvas.setLineCap(1)
    a, b = cell * 0.25, cell * 0.75
    canvas.line(x + a, y + cell * 0.3, x + b, y + cell * 0.85)
    canvas.line(x + a, y + cell * 0.85, x + b, y + cell * 0.3)
    canvas.setLineCap(0)
    _word(canvas, region, word, x, y, cell, ink, plate=True)


def _gap(canvas, region: PatternRegion, word: str, x, y, cell, ink) -> None:
    """Dotted all round and left blank: the spell does not look here."""
    margin = cell * region.inset
    canvas.setStrokeColor(ink.colour(region.dark))
    canvas.setLineWidth(region.stroke_width * 0.8)
    canvas.setDash(1, 2.5)
    canvas.rect(x, y, cell, cell, stroke=1, fill=0)
    canvas.setDash(0.6, 2)
    canvas.rect(x + margin, y + margin, cell - 2 * margin, cell - 2 * margin, stroke=1, fill=0)
    canvas.setDash()
    _word(canvas, region, word, x, y, cell, ink)


_MARKERS = {"vacant": _vacant, "marked": _marked, "gap": _gap}

MODEL = PatternRegion


KINDS = {"pattern": sys.modules[__name__]}  # this game's own region kind (its GameDef's `regions`)
