"""What a game's set is made of: decks of cut-out faces, full-page sheets, and boards over several sheets."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pnp.components.card import Face
from pnp.content.markup import MarkupError, parse
from pnp.content.placeholders import fill
from pnp.content.problems import expected_got
from pnp.imposition import Options


@dataclass(frozen=True)
class Deck:
    """Cards, tiles or tokens of one size, printed n-up and cut out; one back for them all, or
    with `backs` a back of its own for each face (a two-sided card: a Mastery's Apprentice side)."""

    id: str
    title: str
    template: str  # sets the size; each face may use a variant of it
    faces: tuple[Face, ...]  # one per physical piece, repeats included
    back: Face | None
    backs: tuple[Face, ...] | None = None  # one per face, used instead of `back`
    title_field: str | None = None  # the dotted content field its title is read from (words.components.spells)
    gang: bool = False  # shares sheets with neighbouring decks that gang, of other sizes (pnp.document.Gang)
    one_sided: bool = False  # no back: printed in the single-sided job, with no blank back in duplex

    def __post_init__(self) -> None:
        if self.backs is not None and len(self.backs) != len(self.faces):
            raise ValueError(f"deck {self.id}: expected one back per face ({len(self.faces)}), got {len(self.backs)}")

    @property
    def has_backs(self) -> bool:
        return self.back is not None or self.backs is not None

    def back_of(self, index: int) -> Face | None:
        """The back printed behind face `index`."""
        return self.backs[index] if self.backs is not None else self.back

    def all_backs(self) -> tuple[Face, ...]:
        """Every distinct back face, in order of first use."""
        if self.backs is not None:
            return tuple(dict.fromkeys(self.backs))
        return (self.back,) if self.back is not None else ()


class SheetError(ValueError):
    """Something a sheet cannot draw: the content field (dotted path) at fault, or None for the
    sheet's template (it leaves too little room), and what is wrong; `kind` names the field's
    content kind when it is not the sheet's own source (a component's title on the setup page)."""

    def __init__(self, field: str | None, message: str, kind: str | None = None):
        super().__init__(message)
        self.field = field
        self.kind = kind


def require_named(template, what: str, lengths: tuple[str, ...] = (), ratios: tuple[str, ...] = ()) -> None:
    """A SheetError naming every length and ratio a sheet's layout reads that its template lacks."""
    missing = [f"lengths.{n}" for n in lengths if n not in template.lengths]
    missing += [f"ratios.{n}" for n in ratios if n not in template.ratios]
    if missing:
        raise SheetError(None, f"expected the {what}'s {', '.join(missing)} in its template, got none")


def sheet_words(text: str, field: str, **values) -> str:
    """A sheet's content words with their drawing-time placeholders ({n}, {pages}) filled."""
    filled, unknown = fill(text, values)
    if unknown:
        raise SheetError(field, f"unknown placeholder (expected {', '.join(values)}, got {unknown[0]})")
    try:  # checked again once filled: a value may bring a line break into a ** or * span
        parse(filled)
    except MarkupError as err:
        used = ", ".join(f"{{{name}}} with {value!r}" for name, value in values.items() if f"{{{name}}}" in text)
        raise SheetError(field, expected_got(f"{err} once filled ({used})", filled)) from None
    return filled


@dataclass(frozen=True)
class Printing:
    """What a sheet may need to know of the build it is printed in."""

    options: Options
    pages: dict[str, tuple[int, ...]]  # component id -> the page numbers it is printed on in this PDF
    stock: dict[str, tuple[int, ...]]  # "card" (stock) or "plain" (paper) -> the page numbers to print on it
    sheets: dict[str, int]  # "card" or "plain" -> how many sheets of it: a back is on its front's sheet
    one_sided: tuple[int, ...]  # in duplex, the pages printed single-sided, as a job of their own


@dataclass(frozen=True)
class Sheet:
    """A full page drawn by code into the page's free area (score pads, player sheets)."""

    id: str
    title: str
    template: str
    pages: int
    # draw(canvas, area: Rect, template: SheetTemplate, page_index: int, printing: Printing); SheetError
    draw: Callable
    source: str | None = None  # the content kind whose fields a SheetError names
    title_field: str | None = None  # the dotted content field its title is read from
    one_sided: bool = False  # printed in the single-sided job, with no blank back in duplex


@dataclass(frozen=True)
class Board:
    """Boards larger than a sheet (a playing field, a character board for each character): each
    face a board, drawn whole from its board template's regions, printed in overlapping pieces
    (pnp.components.board)."""

    id: str
    title: str
    template: str  # a board template: its size, regions and how its pieces overlap
    faces: tuple[Face, ...]  # one a board
    title_field: str | None = None  # the dotted content field its title is read from
    one_sided: bool = False  # printed in the single-sided job, with no blank back in duplex


Component = Deck | Sheet | Board
