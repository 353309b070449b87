"""Content kinds every game has."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from pnp.content.markup import RichText
from pnp.content.placeholders import Later
from pnp.content.validate import Strict, naming_each


class GameInfo(Strict):
    """kind: game — the game's name and what its box would say."""

    kind: Literal["game"]
    title: str = Field(min_length=1)
    players: str
    tagline: str = ""


class ReferenceSection(Strict):
    heading: str
    text: str  # rich text: **bold**, *italic*, :icon:


class ReferenceFace(Strict):
    title: str
    sections: list[ReferenceSection] = Field(min_length=1)


class ReferenceCard(Strict):
    """kind: reference-card — a rules summary printed on one or more cards; each player gets a set.
    Text that does not fit one card at a readable size goes on the next card, not into smaller type."""

    kind: Literal["reference-card"]
    copies: int = Field(ge=1, le=12)  # sets: one per player
    cards: list[ReferenceFace] = Field(min_length=1, max_length=4)


class SetupSheet(Strict):
    """kind: setup — every word on a game's first page: what the set holds and where, how to print,
    cut and mount it, and how to set up play. The page numbers, counts and sizes come from the build."""

    kind: Literal["setup"]
    name: str = Field(min_length=1, max_length=40)  # the page's name in `pnp list` and its page label
    title: str = Field(min_length=1, max_length=80)  # its heading
    intro: RichText = Field("", max_length=300)
    components: str  # the table's heading, then its columns
    component: str
    count: str
    size: str
    pages: str
    card_size: Annotated[str, Later("width", "height")]  # a deck's size: "{width} × {height} mm"
    sheet_size: Annotated[str, Later("paper")]  # a full-page sheet's: "{paper} page"
    not_printed: str  # the pages of a component left out of this build (--only)
    printing: str  # heading
    print_lines: list[RichText] = Field(max_length=6)  # scale, card stock, ...
    duplex: Annotated[RichText, Later("edge", "pages")]  # how backs print double-sided (pages: which)
    # in duplex, the pages printed single-sided as a job of their own (a set with one-sided components)
    one_sided: Annotated[RichText, Later("pages")] = ""
    edges: Annotated[dict[Literal["long", "short"], str], naming_each("long", "short")]  # --backs picks one
    fold: RichText  # ... when each sheet holds fronts and backs to fold together
    no_backs: RichText  # ... when no backs are printed
    # which pages of this PDF go on which paper: decks on card stock, full-page sheets on plain paper
    card_stock: Annotated[RichText, Later("pages", "sheets")]
    plain_paper: Annotated[RichText, Later("pages")]
    cutting: str  # heading
    # by component id: what to glue to card stock before cutting it, naming its pages
    mount_first: Annotated[dict[str, RichText], Later("pages")] = {}
    shared_cuts: RichText  # the cutting order with shared cuts ...
    gutters: RichText  # ... and with gutters
    cut_lines: list[RichText] = Field([], max_length=6)
    setup: str  # heading
    setup_lines: list[RichText] = Field(min_length=1, max_length=10)  # in our own words
    # beside an actual-size outline of the set's cards, when the page has room: a test before printing all
    print_test: Annotated[RichText, Later("width", "height")] = Field("", max_length=300)
