"""Pages: n-up grids with bleed, crop marks, duplex or folded backs, a scale bar and a page label.

Geometry only: positions in points with the origin at the layout's bottom-left, as PDF has it.
A layout may be landscape; it is printed turned onto portrait paper (document.on_paper), which
keeps the paper's long edge along the layout's long side, so the mirroring below still holds.
Two layouts. Shared cuts (the default): neighbouring cards share their cut lines, the bleed
runs only round the outside of the block (it may run into the printer's margin, as it is cut
away), and the crop marks lie over that outer bleed, so the most cards fit. Gutters: every card
keeps its full bleed on the grid's outer edges; between cards the gutter is up to twice the bleed
and shrinks (to zero, cards then share a cut) before a column or row is lost; crop marks sit
outside the grid's art. Either way every mark stays inside the page's margin.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal

from pnp.geometry import Rect
from pnp.units import INCH, MM

BackMode = Literal["duplex-long", "duplex-short", "fold", "none"]
BACK_MODES: tuple[str, ...] = ("duplex-long", "duplex-short", "fold", "none")


class LayoutError(ValueError):
    """A component does not fit the paper with the margins, marks and bleed asked for."""


@dataclass(frozen=True)
class Paper:
    name: str
    width: float  # portrait
    height: float


@dataclass(frozen=True)
class Options:
    """How a build prints: paper, backs, duplex correction, bleed and ink."""

    paper: str = "a4"
    backs: BackMode = "duplex-long"
    offset: tuple[float, float] = (0.0, 0.0)  # points; moves back pages to correct duplex drift
    bleed: float = 3 * MM
    ink_saver: bool = False
    gutters: bool = False  # a gutter of twice the bleed between cards, instead of shared cuts


MIN_MARK = 1 * MM  # the shortest crop mark still worth cutting to, where the paper leaves little room

PAPERS = {"a4": Paper("A4", 210 * MM, 297 * MM), "letter": Paper("US Letter", 8.5 * INCH, 11 * INCH)}


@dataclass(frozen=True)
class PageStyle:
    """The page template's numbers, in points."""

    margin: float
    mark_length: float
    mark_offset: float
    info_band: float
    fold_gap: float

    @property
    def edge(self) -> float:
        """Room from the paper's edge to the grid's art: printer margin plus crop marks."""
        return self.margin + self.mark_offset + self.mark_length


@dataclass(frozen=True)
class Axis:
    """Cards along one direction of the page."""

    count: int
    gap: float  # between neighbouring trims
    start: float  # first trim edge
    fold_gap: float = 0.0  # in fold mode, the extra gutter at the middle (0 otherwise)

    def edges(self, card: float) -> list[tuple[float, float]]:
        out, pos = [], self.start
        for i in range(self.count):
            out.append((pos, pos + card))
            pos += card + self.gap + (self.fold_gap if self.fold_gap and i == self.count // 2 - 1 else 0.0)
        return out


def plan_axis(
    length: float, card: float, bleed: float, reserved: float, folded: bool, fold_gap: float, gutters: bool
) -> Axis | None:
    """The most cards that fit `length` after `reserved` (margins, marks, info bands and, with
    gutters, the outer bleed), centred."""
    room = length - reserved - (2 * bleed if gutters else 0.0)
    fold_gutter = fold_gap + 2 * bleed if folded else 0.0
    per = 2 if folded else 1
    count = int((room - fold_gutter + 1e-6) // (card * per)) * per
    if count < per:
        return None
    inner_gaps = count - 1 - (1 if folded else 0)
    spare = room - fold_gutter - count * card
    if not gutters:
        gap = 0.0
    else:
        gap = min(2 * bleed, spare / inner_gaps) if inner_gaps else 2 * bleed
    used = count * card + inner_gaps * gap + fold_gutter
    return Axis(count, gap, (length - used) / 2, fold_gutter - gap if folded else 0.0)


@dataclass(frozen=True)
class Grid:
    page_w: float
    page_h: float
    card_w: float
    card_h: float
    bleed: float
    cols: Axis
    rows: Axis
    info_axis: Literal["x", "y"]  # the pair of margins holding the scale bar and the label
    folded: bool
    gutters: bool

    @property
    def landscape(self) -> bool:
        return self.page_w > self.page_h

    @property
    def slots(self) -> int:
        """Cards one page holds (fronts only, in fold mode)."""
        return self.cols.count * self.rows.count // (2 if self.folded else 1)

    def rows_used(self, rows: int) -> Grid:
        """The grid with only its first `rows` rows, centred on the page like the full grid: a
        part-filled sheet (all of a set's tiles, the last sheet of a deck) sits in the middle."""
        if rows == self.rows.count:
            return self
        height = rows * self.card_h + (rows - 1) * self.rows.gap
        return replace(self, rows=Axis(rows, self.rows.gap, (self.page_h - height) / 2))

    def cols_used(self, cols: int) -> Grid:
        """The grid with only its first `cols` columns, centred on the page: a sheet whose rows are
        all part-filled (the last few tiles) sits in the middle too."""
        if cols == self.cols.count:
            return self
        width = cols * self.card_w + (cols - 1) * self.cols.gap
        return replace(self, cols=Axis(cols, self.cols.gap, (self.page_w - width) / 2))

    @cached_property  # the grid is frozen; every placement and crop mark asks for its cells
    def trims(self) -> tuple[Rect, ...]:
        """Every cell's trim box, row by row from the top-left."""
        xs = self.cols.edges(self.card_w)
        ys = self.rows.edges(self.card_h)
        return tuple(Rect(x0, self.page_h - y1, self.card_w, self.card_h) for (y0, y1) in ys for (x0, x1) in xs)

    def front_cells(self) -> list[int]:
        """Cells that take fronts: all of them, or the first half of each row when folded."""
        cols = self.cols.count
        return [i for i in range(cols * self.rows.count) if not self.folded or i % cols < cols // 2]

    def back_cell(self, cell: int, mode: BackMode) -> int:
        """Where the back of the card in `cell` goes: behind it once the sheet is turned over."""
        cols, rows = self.cols.count, self.rows.count
        r, c = divmod(cell, cols)
        return (r * cols + cols - 1 - c) if self.mirrors_across(mode) else ((rows - 1 - r) * cols + c)

    def mirrors_across(self, mode: BackMode) -> bool:
        """Whether turning the sheet over swaps left and right (else top and bottom). Turning over
        on the paper's long edge mirrors across its short dimension, and vice versa; a landscape
        layout lies turned on the paper, its long side along the paper's long edge."""
        return mode == "fold" or (mode == "duplex-long") != self.landscape

    def art(self, trim: Rect) -> Rect:
        """The trim plus the bleed this cell may use: full outside the grid, half the gutter within."""
        xs, ys = self.cols.edges(self.card_w), self.rows.edges(self.card_h)
        lo_x, hi_x = xs[0][0], xs[-1][1]
        lo_y, hi_y = self.page_h - ys[-1][1], self.page_h - ys[0][0]

        def side(edge: float, outer: float, gutter: float) -> float:
            return self.bleed if abs(edge - outer) < 1e-6 else min(self.bleed, gutter / 2)

        fold_x = self.cols.gap + self.cols.fold_gap
        mid = self.page_w / 2
        left = self.bleed if self.folded and abs(trim.x - mid) < fold_x else side(trim.x, lo_x, self.cols.gap)
        right = self.bleed if self.folded and abs(trim.right - mid) < fold_x else side(trim.right, hi_x, self.cols.gap)
        return trim.grow(left, side(trim.y, lo_y, self.rows.gap), right, side(trim.top, hi_y, self.rows.gap))

    def at_top(self, offset: float) -> Grid:
        """The grid with its first row's top `offset` below the page's top: a band of a sheet that
        grids of other sizes share."""
        return replace(self, rows=replace(self.rows, start=offset))

    def behind(self, mode: BackMode) -> Grid:
        """The grid the backs go on: where it lies once the sheet is turned over. A centred grid is
        its own mirror; a band off the middle moves to the other side when mirrored top to bottom."""
        if self.mirrors_across(mode):
            return self
        height = self.rows.count * self.card_h + (self.rows.count - 1) * self.rows.gap
        return self.at_top(self.page_h - self.rows.start - height)

    def block(self) -> Rect:
        """The trims' bounds."""
        cells = self.trims
        x0, y0 = min(c.x for c in cells), min(c.y for c in cells)
        return Rect(x0, y0, max(c.right for c in cells) - x0, max(c.top for c in cells) - y0)

    def art_bounds(self) -> Rect:
        return self.block().grow(self.bleed, self.bleed, self.bleed, self.bleed)


def reserve(style: PageStyle, bleed: float, gutters: bool, info: bool) -> float:
    """What one axis keeps clear of cards at its two ends. With gutters: margin, marks and the
    outer bleed (added by plan_axis). With shared cuts the marks lie over the outer bleed, which
    may run into the margin; but an info band's words must stay clear of the art."""
    if gutters:
        return 2 * (style.edge + (style.info_band if info else 0.0))
    marks = style.mark_offset + MIN_MARK
    if info:
        return 2 * (style.margin + style.info_band + max(bleed, marks))
    return 2 * (style.margin + marks)


def plan_grid(
    paper: Paper,
    card_w: float,
    card_h: float,
    bleed: float,
    style: PageStyle,
    folded: bool,
    gutters: bool,
    banded: bool = False,
) -> Grid:
    """The orientation and layout holding the most cards; ties go to full gutters between rows
    (where, with gutters, one deck's cards meet the next's), then to the roomier gutters. Banded:
    portrait with the info bands at top and bottom, so grids of other sizes can stack on one page."""
    best: tuple | None = None
    turns = ((paper.width, paper.height),) if banded else ((paper.width, paper.height), (paper.height, paper.width))
    for page_w, page_h in turns:
        for info_axis in ("y",) if banded else ("x", "y"):
            reserve_x = reserve(style, bleed, gutters, info_axis == "x")
            reserve_y = reserve(style, bleed, gutters, info_axis == "y")
            cols = plan_axis(page_w, card_w, bleed, reserve_x, folded, style.fold_gap, gutters)
            rows = plan_axis(page_h, card_h, bleed, reserve_y, False, 0.0, gutters)
            if cols is None or rows is None:
                continue
            grid = Grid(page_w, page_h, card_w, card_h, bleed, cols, rows, info_axis, folded, gutters)
            full_rows = rows.count == 1 or rows.gap >= 2 * bleed - 1e-6
            gaps = min(cols.gap if cols.count > 1 else 1e9, rows.gap if rows.count > 1 else 1e9)
            score = (grid.slots, full_rows, gaps)
            if best is None or score > best[0]:
                best = (score, grid)
    if best is None:
        raise LayoutError(
            f"a {card_w / MM:.1f} x {card_h / MM:.1f} mm component with {bleed / MM:.1f} mm bleed "
            f"does not fit on {paper.name}"
        )
    return best[1]


def band_gap(style: PageStyle, bleed: float) -> float:
    """Between two grids stacked on one page: each one's bleed and, beyond it, room for its crop
    marks, so no mark lies on the other's art and a cut along one's outer edge stays clear of the other."""
    return 2 * (bleed + style.mark_offset + style.mark_length)


def band_room(paper: Paper, bleed: float, style: PageStyle, gutters: bool) -> float:
    """The height banded grids share on a portrait page: what plan_axis leaves its rows."""
    return paper.height - reserve(style, bleed, gutters, True) - (2 * bleed if gutters else 0.0)


def crop_marks(grid: Grid, style: PageStyle, cells: list[int]) -> Iterator[tuple[float, float, float, float]]:
    """Line segments (x0, y0, x1, y1) extending each trim edge of the used cells beyond the grid:
    beyond its art with gutters; with shared cuts from just beyond its trims, over the outer
    bleed, up to the margin (and the info band)."""
    trims = [grid.trims[i] for i in cells]
    bounds = grid.art_bounds() if grid.gutters else grid.block()
    lo = style.mark_offset
    band_x = style.info_band if grid.info_axis == "x" else 0.0
    band_y = style.info_band if grid.info_axis == "y" else 0.0
    room_x = min(bounds.x - style.margin - band_x, grid.page_w - style.margin - band_x - bounds.right)
    room_y = min(bounds.y - style.margin - band_y, grid.page_h - style.margin - band_y - bounds.top)
    hi_x, hi_y = min(lo + style.mark_length, room_x), min(lo + style.mark_length, room_y)
    for x in sorted({round(t.x, 3) for t in trims} | {round(t.right, 3) for t in trims}):
        yield (x, bounds.top + lo, x, bounds.top + hi_y)
        yield (x, bounds.y - lo, x, bounds.y - hi_y)
    for y in sorted({round(t.y, 3) for t in trims} | {round(t.top, 3) for t in trims}):
        yield (bounds.x - lo, y, bounds.x - hi_x, y)
        yield (bounds.right + lo, y, bounds.right + hi_x, y)


def fold_line(grid: Grid, style: PageStyle) -> tuple[float, float, float]:
    """(x, y0, y1): the dashed fold line down the middle, as far as the crop marks reach."""
    marks = list(crop_marks(grid, style, list(range(len(grid.trims)))))
    return grid.page_w / 2, min(min(m[1], m[3]) for m in marks), max(max(m[1], m[3]) for m in marks)


def info_bands(page_w: float, page_h: float, style: PageStyle, axis: Literal["x", "y"]) -> tuple[Rect, Rect]:
    """(scale-bar band, label band): inside the margins on opposite sides of the page."""
    m, band = style.margin, style.info_band
    if axis == "y":
        return Rect(m, m, page_w - 2 * m, band), Rect(m, page_h - m - band, page_w - 2 * m, band)
    return Rect(m, m, band, page_h - 2 * m), Rect(page_w - m - band, m, band, page_h - 2 * m)


def sheet_area(page_w: float, page_h: float, style: PageStyle) -> Rect:
    """Where a full-page component may draw: inside the margins and clear of both info bands."""
    m, band = style.margin, style.info_band
    return Rect(m, m + band, page_w - 2 * m, page_h - 2 * (m + band))
