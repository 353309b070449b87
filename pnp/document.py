"""One game's components laid out on pages and written to a PDF, atomically."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from pnp.components.card import Face, draw_face
from pnp.components.kinds import Component, Deck, Sheet
from pnp.imposition import (
    PAPERS,
    Grid,
    Options,
    PageStyle,
    Paper,
    crop_marks,
    info_bands,
    plan_grid,
    sheet_area,
)
from pnp.render import fonts
from pnp.render.pagemarks import (
    draw_crop_marks,
    draw_fold_line,
    draw_label,
    draw_scale_bars,
)
from pnp.render.templates import CardTemplate, PageTemplate


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


class Writer:
    """Draws pages on one canvas. A face printed more than once (a back, a repeated card) is
    drawn once as a form and reused; a one-off face is drawn in place, as a form of its own
    would only add a stream to the file, but what it shares with the other faces of its
    template (the fixed regions: frames, panels) is a form drawn once."""

    def __init__(self, canvas: Canvas, templates: dict, options: Options, repeated: set[Face]):
        self.canvas, self.templates, self.options = canvas, templates, options
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


def deck_pages(deck: Deck, templates: dict, options: Options, style: PageStyle, mark_width: float) -> list[Page]:
    size = templates[deck.template].size
    folded = options.backs == "fold" and deck.back is not None
    grid = plan_grid(PAPERS[options.paper], size.width, size.height, options.bleed, style, folded)
    cells = grid.front_cells()
    pages: list[Page] = []
    dims = (grid.page_w, grid.page_h)
    for start in range(0, len(deck.faces), len(cells)):
        faces = deck.faces[start : start + len(cells)]
        used = cells[: len(faces)]

        def fronts(w: Writer, faces=faces, used=used) -> None:
            for cell, face in zip(used, faces, strict=True):
                w.place(grid, cell, face)
            if folded:
                for cell in used:
                    w.place(grid, grid.back_cell(cell, "fold"), deck.back)
                art, reach = grid.art_bounds(), style.mark_offset + style.mark_length
                draw_fold_line(w.canvas, grid.page_w / 2, art.y - reach, art.top + reach)
            marked = used + ([grid.back_cell(c, "fold") for c in used] if folded else [])
            draw_crop_marks(w.canvas, crop_marks(grid, style, marked), mark_width)

        side = "fronts and backs, fold on the dashed line" if folded else "fronts"
        pages.append(Page(dims, deck.title, side, grid.info_axis, fronts))
        if deck.back is not None and options.backs.startswith("duplex"):

            def backs(w: Writer, used=used) -> None:
                back_cells = [grid.back_cell(c, options.backs) for c in used]
                for cell in back_cells:
                    w.place(grid, cell, deck.back)
                draw_crop_marks(w.canvas, crop_marks(grid, style, back_cells), mark_width)

            edge = options.backs.removeprefix("duplex-")
            side = f"backs: print double-sided, flip on the {edge} edge"
            pages.append(Page(dims, deck.title, side, grid.info_axis, backs, options.offset))
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
            lambda w: sheet.draw(w.canvas, area, templates[sheet.template], index, options.ink_saver),
        )

    return [page(i) for i in range(sheet.pages)]


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
    for component in components:
        if isinstance(component, Deck):
            pages += deck_pages(component, templates, options, style, page_template.crop_marks.width)
        else:
            pages += sheet_pages(component, templates, options, style)
    return pages


def repeated_faces(components: list[Component], options: Options) -> set[Face]:
    """Faces placed more than once in the document: a deck's back counts once per card."""
    counts: Counter[Face] = Counter()
    for deck in components:
        if isinstance(deck, Deck):
            counts.update(deck.faces)
            if deck.back is not None and options.backs != "none":
                counts[deck.back] += len(deck.faces)
    return {face for face, n in counts.items() if n > 1}


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
        writer = Writer(canvas, templates, options, repeated_faces(components, options))
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
            side = f" · {page.side}" if page.side else ""
            draw_label(
                canvas,
                label,
                page_template.info_size,
                f"{title} · {page.component}{side} · page {number} of {len(pages)}",
            )
            canvas.showPage()
            progress(1)
        canvas.save()
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return len(pages)
