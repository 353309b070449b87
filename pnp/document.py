"""One game's components laid out on pages and written to a PDF, atomically."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Literal

from reportlab.pdfgen.canvas import Canvas

from pnp.components.board import draw_piece, plan_board
from pnp.components.card import Face, draw_face
from pnp.components.kinds import Board, Component, Deck, Printing, Sheet
from pnp.components.templates import CardTemplate, PageTemplate
from pnp.imposition import (
    PAPERS,
    Grid,
    Options,
    PageStyle,
    Paper,
    band_gap,
    band_room,
    crop_marks,
    fold_line,
    info_bands,
    plan_grid,
    sheet_area,
)
from pnp.render import fonts
from pnp.render.pagemarks import (
    draw_blank_note,
    draw_crop_marks,
    draw_fold_line,
    draw_label,
    draw_scale_bars,
)

# a front whose back page follows it, that back, a page on its own (a blank back follows it in
# duplex), or one printed single-sided as a job of its own (nothing follows it)
Sides = Literal["front", "back", "single", "alone"]
Stock = Literal["card", "plain"]


def page_style(template: PageTemplate) -> PageStyle:
    marks = template.crop_marks
    return PageStyle(template.margin, marks.length, marks.offset, template.info_band, template.fold_gap)


@dataclass(frozen=True)
class Page:
    """One page to draw: its size, what it shows, and how to draw its content."""

    size: tuple[float, float]  # the layout's; landscape layouts are turned onto portrait paper
    component: str
    side: str
    info_axis: str
    draw: Callable[[Writer], None]
    shift: tuple[float, float] = (0.0, 0.0)  # the duplex offset, in the paper's portrait frame
    holds: tuple[str, ...] = ()  # the ids of the components printed on this page (fronts, backs or a blank back)
    sides: Sides = "single"
    stock: Stock = "card"  # what to print it on: cards, tiles and tracks on card stock, sheets on plain paper


class Writer:
    """Draws pages on one canvas. A face printed more than once (a back, a repeated card) is
    drawn once as a form and reused; a one-off face is drawn in place, as a form of its own
    would only add a stream to the file, but what it shares with the other faces of its
    template (the fixed regions: frames, panels) is a form drawn once."""

    def __init__(self, canvas: Canvas, templates: dict, options: Options, repeated: set[Face], pages: list[Page]):
        self.canvas, self.templates, self.options = canvas, templates, options
        alone = tuple(n for n, page in enumerate(pages, 1) if page.sides == "alone")
        self.printing = Printing(options, component_pages(pages), stock_pages(pages), stock_sheets(pages), alone)
        self.repeated = repeated
        self.forms: dict[Hashable, str] = {}

    def reuse(self, key: Hashable, draw: Callable[[], None], template: str) -> None:
        """Place the form `key` names, drawing it with `draw` the first time; its box is the
        bleed box of a face of `template`."""
        name = self.forms.get(key)
        if name is None:
            name = self.forms[key] = f"form{len(self.forms)}"
            size, b = self.templates[template].size, self.options.bleed
            self.canvas.beginForm(name, -b, -b, size.width + b, size.height + b)
            draw()
            self.canvas.endForm()
        self.canvas.doForm(name)

    def draw_face(self, face: Face) -> None:
        template: CardTemplate = self.templates[face.template]
        shared = lambda key, draw: self.reuse(key, draw, face.template)
        draw_face(self.canvas, face, template, self.options.bleed, self.options.ink_saver, shared)

    def place(self, grid: Grid, cell: int, face: Face) -> None:
        trim = grid.trims[cell]
        art = grid.art(trim)
        c = self.canvas
        c.saveState()
        clip = c.beginPath()
        clip.rect(art.x, art.y, art.w, art.h)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(trim.x, trim.y)
        if face in self.repeated:
            self.reuse(face, partial(self.draw_face, face), face.template)
        else:
            # the face's bleed box, as a form's BBox gives it: every placement records its trim
            # in the PDF, so it can be read back (tests/pdfcards.py) whether drawn in place or not
            template: CardTemplate = self.templates[face.template]
            b = self.options.bleed
            box = c.beginPath()
            box.rect(-b, -b, template.size.width + 2 * b, template.size.height + 2 * b)
            c.clipPath(box, stroke=0, fill=0)
            self.draw_face(face)
        c.restoreState()


@dataclass(frozen=True)
class Slot:
    """One card to print and its back (its deck's, or its own)."""

    face: Face
    back: Face | None
    deck: str


def fill_sheets(decks: list[Deck], full: Grid, options: Options) -> list[list[tuple[int, Slot]]]:
    """The decks' cards in the full grid's cells, sheet by sheet: the next deck starts where the last
    one ended. With gutters a new deck or face template starts a new row, as only the gutters
    between rows are kept at twice the bleed."""
    cells = full.front_cells()
    per_row = len(cells) // full.rows.count
    sheets: list[list[tuple[int, Slot]]] = [[]]
    at, last = 0, None
    for deck in decks:
        for index, face in enumerate(deck.faces):
            kind = (deck.id, face.template)
            if options.gutters and last is not None and kind != last and at % per_row:
                at += per_row - at % per_row
            if at == len(cells):
                sheets.append([])
                at = 0
            sheets[-1].append((cells[at], Slot(face, deck.back_of(index), deck.id)))
            at, last = at + 1, kind
    return sheets


Band = tuple[Grid, list[tuple[int, Slot]]]  # a grid on a page and the cards in its cells


def centred(full: Grid, placed: list[tuple[int, Slot]]) -> Band:
    """Only the rows (and, when no row is full, the columns) a sheet's cards use, centred as the full grid is."""
    grid = full.rows_used(max(cell for cell, _ in placed) // full.cols.count + 1)
    widest = max(cell % full.cols.count for cell, _ in placed) + 1
    if widest < full.cols.count and not full.folded:
        grid = grid.cols_used(widest)
        placed = [((cell // full.cols.count) * widest + cell % full.cols.count, slot) for cell, slot in placed]
    return grid, placed


def band_pages(
    bands: list[Band], decks: dict[str, Deck], info_axis: str, options: Options, style: PageStyle, mark_width: float
) -> list[Page]:
    """A front page holding the bands (one grid, or grids of several sizes stacked) and, in duplex
    when any card has a back, the back page behind it."""
    dims = (bands[0][0].page_w, bands[0][0].page_h)
    slots = [slot for _, placed in bands for _, slot in placed]
    holds = tuple(dict.fromkeys(slot.deck for slot in slots))
    title = " + ".join(decks[deck].title for deck in holds)
    folded = any(grid.folded for grid, _ in bands)

    def fronts(w: Writer) -> None:
        for grid, placed in bands:
            used = [cell for cell, _ in placed]
            for cell, slot in placed:
                w.place(grid, cell, slot.face)
            if grid.folded:
                beside = [(grid.back_cell(cell, "fold"), slot.back) for cell, slot in placed if slot.back is not None]
                for cell, back in beside:
                    w.place(grid, cell, back)
                draw_fold_line(w.canvas, *fold_line(grid, style))
                used += [cell for cell, _ in beside]
            draw_crop_marks(w.canvas, crop_marks(grid, style, used), mark_width)

    side = "fronts and backs, fold on the dashed line" if folded else "fronts"
    duplex = options.backs.startswith("duplex") and any(slot.back is not None for slot in slots)
    alone = all(decks[deck].one_sided for deck in holds)
    sides = "front" if duplex else "alone" if alone else "single"
    pages = [Page(dims, title, side, info_axis, fronts, holds=holds, sides=sides)]
    if duplex:

        def backs(w: Writer) -> None:
            for grid, placed in bands:
                behind = grid.behind(options.backs)
                cells = [(grid.back_cell(cell, options.backs), slot.back) for cell, slot in placed if slot.back]
                for cell, back in cells:
                    w.place(behind, cell, back)
                draw_crop_marks(w.canvas, crop_marks(behind, style, [cell for cell, _ in cells]), mark_width)

        edge = options.backs.removeprefix("duplex-")
        side = f"backs: print double-sided, flip on the {edge} edge"
        pages.append(Page(dims, title, side, info_axis, backs, options.offset, holds, "back"))
    return pages


def full_grid(decks: list[Deck], templates: dict, options: Options, style: PageStyle, banded: bool) -> Grid:
    """The grid a page of these decks' size holds: any way round, or portrait to stack with others."""
    size = templates[decks[0].template].size
    folded = options.backs == "fold" and decks[0].has_backs
    paper = PAPERS[options.paper]
    return plan_grid(paper, size.width, size.height, options.bleed, style, folded, options.gutters, banded)


def deck_run_pages(
    decks: list[Deck], templates: dict, options: Options, style: PageStyle, mark_width: float
) -> list[Page]:
    """Pages for decks of one card size printed in a row, each sheet's block centred on its page."""
    full = full_grid(decks, templates, options, style, banded=False)
    by_id = {deck.id: deck for deck in decks}
    return [
        page
        for placed in fill_sheets(decks, full, options)
        for page in band_pages([centred(full, placed)], by_id, full.info_axis, options, style, mark_width)
    ]


@dataclass(frozen=True)
class Gang:
    """Neighbouring runs of small pieces, each of its own size, that share sheets: each run's
    sheets become bands stacked down the page while they fit, so a few tokens of a kind take
    no sheet of their own."""

    runs: list[list[Deck]]


def gang_pages(gang: Gang, templates: dict, options: Options, style: PageStyle, mark_width: float) -> list[Page]:
    paper = PAPERS[options.paper]
    bands: list[Band] = []
    for decks in gang.runs:
        full = full_grid(decks, templates, options, style, banded=True)
        bands += [centred(full, placed) for placed in fill_sheets(decks, full, options)]
    gap, room = band_gap(style, options.bleed), band_room(paper, options.bleed, style, options.gutters)
    sheets: list[list[Band]] = []
    used = 0.0
    for band in bands:  # in order, each on the current sheet while it fits, else on a new one
        height = band[0].block().h
        if sheets and used + gap + height <= room + 1e-6:
            sheets[-1].append(band)
            used += gap + height
        else:
            sheets.append([band])
            used = height
    by_id = {deck.id: deck for decks in gang.runs for deck in decks}
    pages: list[Page] = []
    for sheet in sheets:
        top = (paper.height - sum(grid.block().h for grid, _ in sheet) - gap * (len(sheet) - 1)) / 2
        stacked: list[Band] = []
        for grid, placed in sheet:
            stacked.append((grid.at_top(top), placed))
            top += grid.block().h + gap
        pages += band_pages(stacked, by_id, "y", options, style, mark_width)
    return pages


def sheet_pages(sheet: Sheet, templates: dict, options: Options, style: PageStyle) -> list[Page]:
    paper = PAPERS[options.paper]
    dims = (paper.width, paper.height)
    area = sheet_area(*dims, style)

    def page(index: int) -> Page:
        return Page(
            dims,
            sheet.title,
            "",
            "y",
            lambda w: sheet.draw(w.canvas, area, templates[sheet.template], index, w.printing),
            holds=(sheet.id,),
            sides="alone" if sheet.one_sided else "single",
            stock="plain",
        )

    return [page(i) for i in range(sheet.pages)]


def board_pages(board: Board, templates: dict, options: Options, style: PageStyle) -> list[Page]:
    """A page for each piece of each board, on card stock; a board itself is drawn once, as a form
    every page of it places (its fixed regions drawn in it, not as forms of their own)."""
    template = templates[board.template]
    tiling = plan_board(template, PAPERS[options.paper], options.bleed, style)
    page_template: PageTemplate = templates["page"]
    info_size, crop_width = page_template.info_size, page_template.crop_marks.width

    def page(n: int, face, piece) -> Page:
        def draw(w: Writer) -> None:
            whole = partial(draw_face, w.canvas, face, template, options.bleed, options.ink_saver)
            place = partial(w.reuse, ("board", board.id, n), whole, board.template)
            draw_piece(w.canvas, tiling, piece, template, style, info_size, crop_width, place)

        side = f"piece {piece.name} of {len(tiling.pieces)}" if len(tiling.pieces) > 1 else ""
        sides = "alone" if board.one_sided else "single"
        return Page(tiling.layout, board.title, side, "y", draw, holds=(board.id,), sides=sides)

    return [page(n, face, piece) for n, face in enumerate(board.faces) for piece in tiling.pieces]


def component_pages(pages: list[Page]) -> dict[str, tuple[int, ...]]:
    """Each component's id -> the numbers (from 1) of the pages it is printed on, fronts and backs."""
    found: dict[str, list[int]] = {}
    for number, page in enumerate(pages, 1):
        for component in page.holds:
            found.setdefault(component, []).append(number)
    return {component: tuple(numbers) for component, numbers in found.items()}


def stock_sheets(pages: list[Page]) -> dict[Stock, int]:
    """Card stock and plain paper -> how many sheets of it the pages take: a back (or a blank
    back) is printed on its front's sheet."""
    return dict(Counter(page.stock for page in pages if page.sides != "back"))


def stock_pages(pages: list[Page]) -> dict[Stock, tuple[int, ...]]:
    """Card stock and plain paper -> the numbers (from 1) of the pages to print on it."""
    found: dict[Stock, list[int]] = {}
    for number, page in enumerate(pages, 1):
        found.setdefault(page.stock, []).append(number)
    return {stock: tuple(numbers) for stock, numbers in found.items()}


BLANK_NOTE = "Left blank on purpose: this side keeps every later back behind its front."


def with_blank_backs(pages: list[Page], paper: Paper) -> list[Page]:
    """In duplex, a page on its own gets a blank page after it, so the whole file printed
    double-sided puts every later front and its back on the two sides of one sheet."""
    out: list[Page] = []
    for page in pages:
        out.append(page)
        if page.sides == "single":
            # the same component's page, so the setup page's ranges take in whole sheets: 3–14, not 3, 5, ..., 13
            blank = Page(
                (paper.width, paper.height),
                page.component,
                "blank back",
                "y",
                lambda w: draw_blank_note(
                    w.canvas, paper.width, paper.height, w.templates["page"].info_size, BLANK_NOTE
                ),
                holds=page.holds,
                sides="back",
                stock=page.stock,
            )
            out.append(blank)
    return out


def on_paper(canvas: Canvas, page: Page, paper: Paper) -> bool:
    """Every sheet goes through the printer portrait, so no print dialog's auto-rotation can move
    the backs and an offset is the same physical shift on every sheet: shift by the page's offset,
    then turn a landscape layout a quarter anticlockwise (its top to the paper's left edge).
    Whether the layout was turned."""
    canvas.translate(*page.shift)
    if page.size[0] <= page.size[1]:
        return False
    canvas.translate(paper.width, 0)
    canvas.rotate(90)
    return True


def plan_pages(components: list[Component], templates: dict, options: Options) -> list[Page]:
    page_template: PageTemplate = templates["page"]
    style = page_style(page_template)
    pages: list[Page] = []
    for run in share_sheets(components, templates, options):
        if isinstance(run, Sheet):
            pages += sheet_pages(run, templates, options, style)
        elif isinstance(run, Board):
            pages += board_pages(run, templates, options, style)
        elif isinstance(run, Gang):
            pages += gang_pages(run, templates, options, style, page_template.crop_marks.width)
        else:
            pages += deck_run_pages(run, templates, options, style, page_template.crop_marks.width)
    # fold and none print single-sided: every page stands alone already
    return with_blank_backs(pages, PAPERS[options.paper]) if options.backs.startswith("duplex") else pages


def share_sheets(
    components: list[Component], templates: dict, options: Options
) -> list[list[Deck] | Gang | Sheet | Board]:
    """Components in order, neighbouring decks that can share sheets gathered into runs: the same
    card size, and in fold mode all with backs or all without; neighbouring runs of decks that
    gang (small pieces) gathered into a gang."""
    runs: list[list[Deck] | Sheet | Board] = []

    def key(deck: Deck) -> tuple:
        size = templates[deck.template].size
        return (size.width, size.height, options.backs == "fold" and deck.has_backs)

    for component in components:
        if isinstance(component, Deck) and runs and isinstance(runs[-1], list) and key(runs[-1][0]) == key(component):
            runs[-1].append(component)
        else:
            runs.append([component] if isinstance(component, Deck) else component)
    out: list[list[Deck] | Gang | Sheet | Board] = []
    for run in runs:
        if not (isinstance(run, list) and all(deck.gang for deck in run)):
            out.append(run)
        elif out and isinstance(out[-1], Gang):
            out[-1].runs.append(run)
        else:
            out.append(Gang([run]))
    return out


def repeated_faces(components: list[Component], options: Options) -> set[Face]:
    """Faces placed more than once in the document: a deck's back counts once per card."""
    counts: Counter[Face] = Counter()
    for deck in components:
        if isinstance(deck, Deck):
            counts.update(deck.faces)
            if options.backs != "none":
                counts.update(deck.back_of(i) for i in range(len(deck.faces)) if deck.has_backs)
    return {face for face, n in counts.items() if n > 1}


def page_label(title: str, page: Page, number: int, total: int) -> str:
    """The line naming a page in its label band: game, component, side and page number."""
    side = f" · {page.side}" if page.side else ""
    return f"{title} · {page.component}{side} · page {number} of {total}"


def label_room(page_template: PageTemplate, options: Options) -> float:
    """The length of a page's label band, on the paper's shorter side (a page may be turned)."""
    paper = PAPERS[options.paper]
    return min(paper.width, paper.height) - 2 * page_template.margin


def write_pdf(
    path: Path,
    title: str,
    components: list[Component],
    templates: dict,
    options: Options,
    progress: Callable[[int], None] = lambda _: None,
) -> int:
    """Write every page to `path` through a temporary file; return the page count."""
    pages = plan_pages(components, templates, options)
    page_template: PageTemplate = templates["page"]
    style = page_style(page_template)
    tmp = path.with_name(f".{path.name}.tmp")
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        canvas = fonts.new_canvas(str(tmp))
        canvas.setTitle(title)
        canvas.setAuthor("Spellpress")
        canvas.setCreator("Spellpress pnp")
        writer = Writer(canvas, templates, options, repeated_faces(components, options), pages)
        paper = PAPERS[options.paper]
        for number, page in enumerate(pages, 1):
            canvas.setPageSize((paper.width, paper.height))
            canvas.saveState()
            turned = on_paper(canvas, page, paper)
            page.draw(writer)
            canvas.restoreState()
            # the bands are laid out on the paper itself, so their words read along it, never upside down
            axis = {"x": "y", "y": "x"}[page.info_axis] if turned else page.info_axis
            scale, label = info_bands(paper.width, paper.height, style, axis)
            draw_scale_bars(canvas, scale, page_template.info_size)
            draw_label(canvas, label, page_template.info_size, page_label(title, page, number, len(pages)))
            canvas.showPage()
            progress(1)
        canvas.save()
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return len(pages)
