"""A board printed in pieces: how it is cut into pages, and what each page shows to put it together.

The board is drawn once, whole, from its template's regions (a PDF form); each page shows one
window onto it. Pieces are named by row letter and column number from the top-left (A1, A2, B1).
A piece lies on its left and upper neighbours: its left and top edges are cut on the seam, and
each piece with a neighbour to its right or below it keeps a glue strip there, as wide as the
template's overlap, that goes under that neighbour. On both sides of every seam, + marks sit at
the same points of the board: the whole + on the piece keeping the strip and the half + at the
edge of the piece laid over it meet when the two are aligned. Each page also carries its piece's name, a map
of the pieces, and crop marks for every cut.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from reportlab.lib.colors import black, white

from pnp.components.templates import BoardTemplate, Size
from pnp.geometry import Rect
from pnp.imposition import LayoutError, PageStyle, Paper, sheet_area
from pnp.render import fonts
from pnp.units import MM

MARK_WIDTH = 0.5  # points: the + marks' line, thicker than crop marks so neither is taken for the other
GLUE_GREY = 0.55  # the glue strip's tint, printed at a third of its strength
ASSEMBLY_NOTE = "Cut on the crop marks. Glue each grey strip under the piece it names, the + marks meeting."


@dataclass(frozen=True)
class Piece:
    row: int  # from the board's top
    col: int  # from its left
    window: Rect  # the part of the board this page shows, in the board's frame (origin: trim's bottom-left)
    origin: tuple[float, float]  # where the board's origin lands on the page

    @property
    def name(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.col + 1}"

    def on_page(self, x: float, y: float) -> tuple[float, float]:
        return self.origin[0] + x, self.origin[1] + y


@dataclass(frozen=True)
class Tiling:
    """The board's pieces on pages of one layout (landscape layouts print turned, document.on_paper)."""

    layout: tuple[float, float]
    rows: int
    cols: int
    pieces: tuple[Piece, ...]  # row by row from the top-left
    key: Rect  # the band above the pieces, on the page, for the name and the map
    overlap: float


def spans(
    length: float, room: float, overlap: float, lines: tuple[float, ...] = ()
) -> list[tuple[float, float]] | None:
    """The fewest spans of 0..length that each fit `room`, neighbours overlapping by `overlap`; None
    when no number of spans can. Where as few spans can each start on one of `lines` (a field's
    square edges), they do, so no seam crosses a square; otherwise they are equal: n spans cover
    n * span - (n - 1) * overlap."""
    if length <= room:
        return [(0.0, length)]
    if room <= overlap:
        return None
    count = math.ceil((length - overlap) / (room - overlap) - 1e-9)
    span = (length + (count - 1) * overlap) / count
    on_lines = spans_on_lines(length, room, overlap, lines)
    if on_lines is not None and len(on_lines) == count:
        return on_lines
    return [(k * (span - overlap), k * (span - overlap) + span) for k in range(count)]


def spans_on_lines(length: float, room: float, overlap: float, lines: tuple[float, ...]):
    """Spans each after the first starting on a line: as few as can be, and of those the most even,
    each seam on the line nearest an even share of what is left (a field in halves, not six
    squares and two); None when a span can reach no further line."""
    fewest = lay_on_lines(length, room, overlap, lines, lambda start, reach, left: reach[-1])
    if fewest is None:
        return None

    def even(start: float, reach: list[float], left: int) -> float:
        share = (length - start + (left - 1) * overlap) / left  # each span left, all equal
        return min(reach, key=lambda line: abs(line - (start + share - overlap)))

    evened = lay_on_lines(length, room, overlap, lines, even, len(fewest))
    return evened if evened is not None and len(evened) == len(fewest) else fewest


def lay_on_lines(length: float, room: float, overlap: float, lines: tuple[float, ...], choose, count: int = 1):
    """Spans each after the first starting on the line `choose(start, the lines the span can
    reach, spans left of `count`)` picks; None when a span can reach no line."""
    out, start = [], 0.0
    while start + room < length:
        reach = [line for line in lines if start < line <= start + room - overlap]
        if not reach:
            return None
        seam = choose(start, reach, max(1, count - len(out)))
        out.append((start, seam + overlap))
        start = seam
    return [*out, (start, length)]


def plan_board(template: BoardTemplate, paper: Paper, bleed: float, style: PageStyle) -> Tiling:
    """The tiling on the fewest pages, portrait or landscape: every piece inside the page's free
    area (clear of the printer's margin and the info bands), below its key band, with room round it
    for crop marks. A board that fits one page whole (a character board) needs no key and has none.
    The board's outer edges keep the bleed; pieces are centred in their room."""
    found = [
        tiling
        for layout in ((paper.width, paper.height), (paper.height, paper.width))
        for key in (0.0, template.key)
        if (tiling := tile(template, layout, key, bleed, style)) is not None and (key or len(tiling.pieces) == 1)
    ]
    if not found:
        raise LayoutError(
            f"a board's {template.overlap / MM:.1f} mm overlap leaves no room for its pieces on {paper.name}"
        )
    return min(found, key=lambda tiling: len(tiling.pieces))  # the first of the fewest: portrait, no key


def tile(template: BoardTemplate, layout: tuple[float, float], key: float, bleed: float, style: PageStyle):
    """The board's pieces on a page of `layout` with a key band `key` high; None if none fit."""
    width, height = template.size.width + 2 * bleed, template.size.height + 2 * bleed
    marks = style.mark_offset + style.mark_length
    area = sheet_area(*layout, style)
    room = Rect(area.x + marks, area.y + marks, area.w - 2 * marks, area.h - 2 * marks - key)
    across = spans(width, room.w, template.overlap, seam_lines(template, width, bleed))
    down = spans(height, room.h, template.overlap, seam_lines(template, height, bleed))
    if across is None or down is None:
        return None
    pieces = []
    for row, (top, bottom) in enumerate(down):  # measured down from the bleed's top edge
        for col, (left, right) in enumerate(across):
            window = Rect(left - bleed, template.size.height + bleed - bottom, right - left, bottom - top)
            at = (room.x + (room.w - window.w) / 2, room.y + (room.h - window.h) / 2)
            pieces.append(Piece(row, col, window, (at[0] - window.x, at[1] - window.y)))
    band = Rect(area.x, area.top - key, area.w, key)
    return Tiling(layout, len(down), len(across), tuple(pieces), band, template.overlap)


def seam_lines(template: BoardTemplate, length: float, bleed: float) -> tuple[float, ...]:
    """Where the template lets seams fall along one side, measured from the bleed's edge (left or top)."""
    lines = template.seams
    if lines is None:
        return ()
    count = int((length - 2 * bleed - lines.offset) // lines.every) + 1
    return tuple(bleed + lines.offset + k * lines.every for k in range(count))


def cut(tiling: Tiling, piece: Piece, size: Size) -> Rect:
    """Where the piece is cut, in the board's frame: on its window's edge where it meets a
    neighbour, on the board's trim (its bleed cut away) at the board's own edges."""
    w = piece.window
    left = 0.0 if piece.col == 0 else w.x
    right = size.width if piece.col == tiling.cols - 1 else w.right
    bottom = 0.0 if piece.row == tiling.rows - 1 else w.y
    top = size.height if piece.row == 0 else w.top
    return Rect(left, bottom, right - left, top - bottom)


def glue_strips(tiling: Tiling, piece: Piece) -> list[tuple[Rect, str]]:
    """Each strip that goes under a neighbour (right or below), in the board's frame, with its name."""
    w, overlap = piece.window, tiling.overlap
    strips = []
    if piece.col < tiling.cols - 1:
        strips.append((Rect(w.right - overlap, w.y, overlap, w.h), neighbour(tiling, piece, 0, 1).name))
    if piece.row < tiling.rows - 1:
        strips.append((Rect(w.x, w.y, w.w, overlap), neighbour(tiling, piece, 1, 0).name))
    return strips


def neighbour(tiling: Tiling, piece: Piece, down: int, across: int) -> Piece:
    return tiling.pieces[(piece.row + down) * tiling.cols + piece.col + across]


def seam_marks(tiling: Tiling, piece: Piece) -> Iterator[tuple[float, float, bool, bool]]:
    """(x, y, vertical seam, whole +) for each mark on this piece, in the board's frame: two a seam,
    a quarter of the way in from each end. A whole + where the piece runs on under its neighbour,
    half of it (the part on the piece) where the piece is cut on the seam."""
    w = piece.window
    ys, xs = (w.y + w.h / 4, w.y + 3 * w.h / 4), (w.x + w.w / 4, w.x + 3 * w.w / 4)
    if piece.col > 0:
        yield from ((w.x, y, True, False) for y in ys)
    if piece.col < tiling.cols - 1:
        seam = neighbour(tiling, piece, 0, 1).window.x
        yield from ((seam, y, True, True) for y in ys)
    if piece.row > 0:
        yield from ((x, w.top, False, False) for x in xs)
    if piece.row < tiling.rows - 1:
        seam = neighbour(tiling, piece, 1, 0).window.top
        yield from ((x, seam, False, True) for x in xs)


def crop_marks(
    tiling: Tiling, piece: Piece, size: Size, style: PageStyle
) -> Iterator[tuple[float, float, float, float]]:
    """Segments on the page extending each cut beyond the piece's window, into the room kept round it."""
    c, w = cut(tiling, piece, size), piece.window
    (x0, y0), (x1, y1) = piece.on_page(w.x, w.y), piece.on_page(w.right, w.top)
    lo, hi = style.mark_offset, style.mark_offset + style.mark_length
    for x in (c.x, c.right):
        px = piece.on_page(x, 0)[0]
        yield (px, y1 + lo, px, y1 + hi)
        yield (px, y0 - lo, px, y0 - hi)
    for y in (c.y, c.top):
        py = piece.on_page(0, y)[1]
        yield (x0 - lo, py, x0 - hi, py)
        yield (x1 + lo, py, x1 + hi, py)


def draw_piece(canvas, tiling: Tiling, piece: Piece, template: BoardTemplate, style: PageStyle, info_size: float,
               crop_width: float, place_board: Callable[[], None]) -> None:  # fmt: skip
    """One page: the board seen through the piece's window, its glue strips, + marks and crop
    marks, and the key band with its name and the map."""
    w = piece.window
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(*piece.on_page(w.x, w.y), w.w, w.h)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(*piece.origin)
    place_board()
    canvas.restoreState()
    for strip, name in glue_strips(tiling, piece):
        draw_glue_strip(canvas, strip, piece, f"seam {piece.name}–{name}: {name} goes over this strip", info_size)
    canvas.saveState()
    canvas.setStrokeColor(black)
    canvas.setLineWidth(MARK_WIDTH)
    arm = template.marks
    for x, y, vertical, whole in seam_marks(tiling, piece):
        px, py = piece.on_page(x, y)
        inward = -arm if whole else 0.0  # a half + keeps only the arm on its own piece
        if vertical:
            canvas.line(px, py - arm, px, py + arm)
            canvas.line(px + inward, py, px + arm, py)
        else:
            canvas.line(px - arm, py, px + arm, py)
            canvas.line(px, py - inward, px, py - arm)
    canvas.setLineWidth(crop_width)
    for x0, y0, x1, y1 in crop_marks(tiling, piece, template.size, style):
        canvas.line(x0, y0, x1, y1)
    canvas.restoreState()
    draw_key(canvas, tiling, piece, info_size)


def draw_glue_strip(canvas, strip: Rect, piece: Piece, text: str, size: float) -> None:
    canvas.saveState()
    canvas.setFillGray(GLUE_GREY)
    canvas.setFillAlpha(1 / 3)
    x, y = piece.on_page(strip.x, strip.y)
    canvas.rect(x, y, strip.w, strip.h, stroke=0, fill=1)
    canvas.setFillAlpha(1)
    canvas.translate(x + strip.w / 2, y + strip.h / 2)
    if strip.h > strip.w:  # a strip down the side reads bottom to top
        canvas.rotate(90)
    width = fonts.string_width(text, "italic", size) + size  # on white, readable over the board's lines
    canvas.setFillColor(white)
    canvas.rect(-width / 2, -size * 0.75, width, size * 1.5, stroke=0, fill=1)
    canvas.setFillColor(black)
    canvas.setFont(fonts.font_name("italic"), size)
    canvas.drawCentredString(0, -size * 0.35, text)
    canvas.restoreState()


def draw_key(canvas, tiling: Tiling, piece: Piece, size: float) -> None:
    """The band above the piece: its name, large; a map of every piece with this one filled; how
    to put them together. Nothing for a board in one piece."""
    key = tiling.key
    if not key.h:
        return
    canvas.saveState()
    canvas.setFillColor(black)
    canvas.setStrokeColor(black)
    canvas.setLineWidth(0.5)
    canvas.setFont(fonts.font_name("bold"), key.h * 0.6)
    canvas.drawString(key.x, key.y + key.h * 0.25, piece.name)
    cell = min(key.h * 0.8 / tiling.rows, key.h * 1.2 / tiling.cols)
    map_x = key.x + fonts.string_width(piece.name, "bold", key.h * 0.6) + 3 * MM
    map_top = key.y + (key.h + tiling.rows * cell) / 2
    canvas.setFont(fonts.font_name("regular"), min(size, cell * 0.45))
    for other in tiling.pieces:
        x, y = map_x + other.col * cell, map_top - (other.row + 1) * cell
        mine = other == piece
        canvas.setFillGray(0.75 if mine else 1)
        canvas.rect(x, y, cell, cell, stroke=1, fill=1)
        canvas.setFillColor(black)
        canvas.drawCentredString(x + cell / 2, y + cell / 2 - min(size, cell * 0.45) * 0.35, other.name)
    canvas.setFont(fonts.font_name("regular"), size)
    canvas.drawString(map_x + tiling.cols * cell + 3 * MM, key.y + (key.h - size) / 2, ASSEMBLY_NOTE)
    canvas.restoreState()
