"""A game's first page: what the set holds and on which pages of this PDF, how to print, cut and
mount it, and how to set up play.

Every word comes from the game's setup content (pnp.content.common.SetupSheet); the counts, sizes
and page numbers from the build itself (the components and the page plan it prints with), so they
are true for the paper, backs and layout chosen. Type sizes, colours and lengths come from the
sheet template (templates/setup.yaml).
"""

from __future__ import annotations

from pnp.components.kinds import Board, Component, Deck, Printing, Sheet, SheetError, require_named, sheet_words
from pnp.components.templates import SheetTemplate
from pnp.content.common import SetupSheet
from pnp.geometry import Rect
from pnp.imposition import PAPERS
from pnp.render import richtext
from pnp.render.colours import resolve
from pnp.units import MM

LEADING = 1.2
# The components table's columns, weighted by ratios.col_<name>, each headed by the setup words' field of its name.
COLUMNS = ("component", "count", "size", "pages")


def page_ranges(numbers: tuple[int, ...]) -> str:
    """(2, 3, 4, 7) -> '2–4, 7'."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{run[0]}–{run[-1]}" if len(run) > 1 else f"{run[0]}" for run in runs)


def rows(words: SetupSheet, listed: list[Component], templates: dict, printing: Printing) -> list[tuple[str, ...]]:
    """The components table: title, count, size and pages, one row per component."""
    out = []
    for component in listed:
        if isinstance(component, Deck | Board):  # a board's row gives its size when put together
            size = templates[component.template].size
            width, height = (f"{v / MM:.1f}".removesuffix(".0") for v in (size.width, size.height))
            count = len(component.faces)
            what = sheet_words(words.card_size, "card_size", width=width, height=height)
        else:
            paper = PAPERS[printing.options.paper].name
            count, what = component.pages, sheet_words(words.sheet_size, "sheet_size", paper=paper)
        pages = printing.pages.get(component.id)
        out.append((component.title, str(count), what, page_ranges(pages) if pages else words.not_printed))
    return out


def size_field(component: Component, column: int) -> str | None:
    """The setup words a body cell of the size column is written from; None for the other columns."""
    if COLUMNS[column] != "size":
        return None
    return "card_size" if isinstance(component, Deck | Board) else "sheet_size"


def printer_lines(words: SetupSheet, printing: Printing) -> list[tuple[str, str]]:
    """(text, content field) for the printing section: how the backs print comes from --backs, and
    which pages go on card stock and which on plain paper from the page plan."""
    backs = printing.options.backs
    alone = printing.one_sided if backs.startswith("duplex") and words.one_sided else ()
    if backs.startswith("duplex"):
        edge = words.edges[backs.removeprefix("duplex-")]
        both = tuple(n for pages in printing.stock.values() for n in pages if n not in alone)
        how = [(sheet_words(words.duplex, "duplex", edge=edge, pages=page_ranges(tuple(sorted(both)))), "duplex")]
        how += [(sheet_words(words.one_sided, "one_sided", pages=page_ranges(alone)), "one_sided")] if alone else []
    else:
        how = [(words.fold, "fold") if backs == "fold" else (words.no_backs, "no_backs")]
    papers = [
        (sheet_words(text, field, pages=page_ranges(printing.stock[stock]), sheets=printing.sheets[stock]), field)
        for stock, text, field in (
            ("card", words.card_stock, "card_stock"),
            ("plain", words.plain_paper, "plain_paper"),
        )
        if printing.stock.get(stock)
    ]
    return how + papers + [(line, f"print_lines.{i}") for i, line in enumerate(words.print_lines)]


def cutting_lines(words: SetupSheet, listed: list[Component], printing: Printing) -> list[tuple[str, str]]:
    """Mounting first (for the components in this PDF that need it), then the cutting order."""
    lines = []
    for component in listed:
        pages = printing.pages.get(component.id)
        if component.id in words.mount_first and pages:
            text = sheet_words(words.mount_first[component.id], f"mount_first.{component.id}", pages=page_ranges(pages))
            lines.append((text, f"mount_first.{component.id}"))
    order = (words.gutters, "gutters") if printing.options.gutters else (words.shared_cuts, "shared_cuts")
    return lines + [order] + [(line, f"cut_lines.{i}") for i, line in enumerate(words.cut_lines)]


class Page:
    """Draws top to bottom in the area, failing with the content field whose text does not fit."""

    def __init__(self, canvas, area: Rect, template: SheetTemplate, ink_saver: bool):
        self.canvas, self.area, self.t = canvas, area, template
        self.top = area.top
        self.colour = lambda name: resolve(name, template.colours)
        self.fills = not ink_saver
        self.gap = template.lengths.get("gap", 4 * MM)

    def text(self, text: str, field: str | None, style: str, size: float, colour: str, x: float, w: float):
        room = self.top - self.area.y
        fitted = richtext.fit(text, style, w, room, size, size, LEADING)
        if fitted is None:
            raise SheetError(
                field,
                f"text does not fit the {w / MM:.0f} x {room / MM:.0f} mm left on the first page "
                f"(expected text that fits at {size:g} pt, got {len(text)} characters)",
            )
        top = self.top - fitted.height
        richtext.draw(self.canvas, fitted, x, top, w, fitted.height, "left", "top", self.colour(colour))
        return fitted.height

    def heading(self, text: str, field: str, x: float, w: float) -> None:
        self.top -= self.text(text, field, "bold", self.t.heading_size, "accent", x, w) + self.gap / 2
        self.canvas.setStrokeColor(self.colour("rule"))
        self.canvas.setLineWidth(self.t.line_width)
        self.canvas.line(x, self.top + self.gap / 4, x + w, self.top + self.gap / 4)

    def bullets(self, lines: list[tuple[str, str]], x: float, w: float) -> None:
        indent = self.t.body_size * 1.1
        for line, field in lines:
            self.text("•", None, "bold", self.t.body_size, "accent", x, indent)
            self.top -= self.text(line, field, "regular", self.t.body_size, "ink", x + indent, w - indent)
            self.top -= self.gap / 3

    @staticmethod
    def unfitted(cell: str, smallest: float, field: str | None, component: Component | None) -> SheetError:
        """A table cell too long for its column, at its field: a heading's or a size's in the setup
        words, a component's title where the set template reads it, any other cell (a count) at the
        template."""
        message = (
            f"{cell!r} does not fit its column on the first page "
            f"(expected text that fits at {smallest:g} pt or larger, got {len(cell)} characters)"
        )
        if component is not None and component.title_field:
            kind, _, field = component.title_field.partition(".")
            return SheetError(field, message, kind)
        return SheetError(field, message)

    def table(
        self, headers: list[str], body: list[tuple[str, ...]], weights: list[float], listed: list[Component]
    ) -> None:
        a, size, pad = self.area, self.t.body_size, self.gap / 2
        xs = [a.x]
        for weight in weights:
            xs.append(xs[-1] + a.w * weight / sum(weights))
        row = size * 2.2
        c = self.canvas
        c.setLineWidth(self.t.line_width)
        c.setStrokeColor(self.colour("rule"))
        for i, cells in enumerate([headers, *body]):
            y = self.top - (i + 1) * row
            if y < a.y:
                rows = f"(expected at most {i} rows, got {len(body) + 1})"  # rows 0 to i - 1 fit
                raise SheetError(None, f"the components table does not fit the first page {rows}")
            if i == 0 or (i % 2 == 0 and self.fills):
                c.setFillColor(self.colour("shade"))
                c.rect(a.x, y, a.w, row, stroke=0, fill=1)
            for j, cell in enumerate(cells):
                fitted = richtext.fit(cell, "bold" if i == 0 or j == 0 else "regular", xs[j + 1] - xs[j] - 2 * pad,
                                      row, size, size * 0.75, LEADING)  # fmt: skip
                if fitted is None:
                    field = COLUMNS[j] if i == 0 else size_field(listed[i - 1], j)
                    raise self.unfitted(cell, size * 0.75, field, listed[i - 1] if i and j == 0 else None)
                richtext.draw(c, fitted, xs[j] + pad, y, xs[j + 1] - xs[j] - 2 * pad, row, "left", "middle",
                              self.colour("ink"))  # fmt: skip
            c.line(a.x, y, a.right, y)
        self.top -= (len(body) + 1) * row + self.gap


def draw_setup(
    canvas, area: Rect, template: SheetTemplate, words: SetupSheet, listed: list[Component], templates: dict,
    printing: Printing,
) -> None:  # fmt: skip
    require_named(template, "setup page", ratios=tuple(f"col_{column}" for column in COLUMNS))
    page = Page(canvas, area, template, printing.options.ink_saver)
    page.top -= page.text(words.title, "title", "bold", template.title_size, "accent", area.x, area.w) + page.gap / 2
    if words.intro:
        page.top -= page.text(words.intro, "intro", "italic", template.body_size, "ink", area.x, area.w) + page.gap
    page.heading(words.components, "components", area.x, area.w)
    headers = [getattr(words, field) for field in COLUMNS]
    weights = [template.ratios[f"col_{column}"] for column in COLUMNS]
    page.table(headers, rows(words, listed, templates, printing), weights, listed)
    half = (area.w - page.gap) / 2
    top = page.top
    page.heading(words.printing, "printing", area.x, half)
    page.bullets(printer_lines(words, printing), area.x, half)
    page.top -= page.gap / 2
    page.heading(words.cutting, "cutting", area.x, half)
    page.bullets(cutting_lines(words, listed, printing), area.x, half)
    left_bottom, page.top = page.top, top
    right = area.x + half + page.gap
    page.heading(words.setup, "setup", right, half)
    page.bullets([(line, f"setup_lines.{i}") for i, line in enumerate(words.setup_lines)], right, half)
    page.top = min(page.top, left_bottom)
    draw_print_test(page, words, listed, templates)


def draw_print_test(page: Page, words: SetupSheet, listed: list[Component], templates: dict) -> None:
    """At the foot of the page, when there is room: the first deck's card outline at actual size,
    lying on its long side (a page has more room across than down), with the words saying what
    should match it. Nothing when there is no deck or no room."""
    deck = next((c for c in listed if isinstance(c, Deck)), None)
    if not words.print_test or deck is None:
        return
    size = templates[deck.template].size
    across, down = max(size.width, size.height), min(size.width, size.height)
    a, c = page.area, page.canvas
    bottom = a.y + page.gap  # clear of the scale bars' labels below the area
    if bottom + down + page.gap > page.top or across > a.w / 2:
        return
    c.setStrokeColor(page.colour("accent"))
    c.setLineWidth(page.t.line_width)
    c.setDash(3, 2)
    c.rect(a.x, bottom, across, down, stroke=1, fill=0)
    c.setDash()
    width, height = (f"{v / MM:.1f}".removesuffix(".0") for v in (size.width, size.height))
    text = sheet_words(words.print_test, "print_test", width=width, height=height)
    page.top = bottom + down
    x = a.x + across + page.gap
    page.text(text, "print_test", "regular", page.t.body_size, "ink", x, min(a.right - x, 110 * MM))


def setup_sheet(words: SetupSheet, listed: list[Component], templates: dict) -> Sheet:
    """The first page, listing `listed` (the rest of the set)."""
    return Sheet(
        "setup",
        words.name,
        "setup",
        1,
        lambda canvas, area, template, page, printing: draw_setup(
            canvas, area, template, words, listed, templates, printing
        ),
        source="setup",
        title_field="setup.name",
    )
