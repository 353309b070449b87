"""What a phone sends at a Merchants of Magick table: each move's body (pnp.rules.flow.Move.body).
The logs hold these types and fields: a field may be added, never renamed or taken away."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from pnp.content.validate import Strict
from pnp.games.merchants_of_magick.kinds import CATEGORIES, SCORE_LINES
from pnp.rules.bodies import ByServer

# A round's phases, then the final scores of a table with paper sheets (after the last Mastery phase)
PHASES = ("resource", "crafting", "mastery", "customer")
SCORING = "scoring"
Phase = Literal[(*PHASES, SCORING)]  # type: ignore[valid-type]
MOST = 999  # the most a paper sheet's box may say: coins on a line, orders, potions
MOVED_MOST = 30  # the most potions one spend may move its result by
Count = Annotated[int, Field(ge=0, le=MOST)]
Name = Annotated[str, Field(min_length=1, max_length=40)]


class Start(Strict):
    """Begin the game (host): the companion deals, or the printed cards are on the table."""

    deal: ByServer[dict | None] = None


class Roll(Strict):
    """Roll the dice for `round` (host; the organiser at an event's tables)."""

    round: int = Field(ge=1, le=99)
    dice: ByServer[dict[str, int] | None] = None


class Advance(Strict):
    """End `phase` (host); naming it makes a second tap of the same button harmless."""

    phase: Phase


class Ready(Strict):
    """Done with `phase` (a player)."""

    phase: Phase


class ChooseSheet(Strict):
    """Play on paper or on the phone (a player, before the start)."""

    kind: Literal["paper", "digital"]


class Spend(Strict):
    """Spend this round's `die` result, moved by `adjust` potions, on circle `circle` of `row`."""

    die: str = Field(min_length=1, max_length=20)
    row: Name
    circle: int = Field(ge=0, le=50)
    adjust: int = Field(0, ge=-MOVED_MOST, le=MOVED_MOST)


class Free(Strict):
    """Mark a circle an adventurer's reward gave, with no die."""

    row: Name
    circle: int = Field(ge=0, le=50)


class Claim(Strict):
    """Claim the order in shoppe slot `slot` (face-up orders, left to right)."""

    slot: int = Field(ge=0, le=20)
    order: ByServer[str | None] = None  # the order claimed, named for the history


class Deliver(Strict):
    """Fill the Sponsored Adventurer's order of `category`."""

    category: Literal[CATEGORIES]  # type: ignore[valid-type]


class ScoreMastery(Strict):
    """A paper sheet reached Mastery `card` this Mastery phase (so it flips at the phase's end)."""

    card: Name


class Scores(Strict):
    """A paper sheet's score box: coins per line, fulfilled orders and potions (the tie-breaks).
    The host may put anyone's right, naming them in `player`."""

    lines: dict[Literal[SCORE_LINES], Count] = Field(default_factory=dict)  # type: ignore[valid-type]
    fulfilled: Count = 0
    potions: Count = 0
    player: str | None = Field(None, max_length=40)  # whose sheet; none: the sender's own


class SetMasteries(Strict):
    """The printed Mastery cards in play (host, before the start, with printed cards)."""

    material: Name
    energy: Name


class SetCards(Strict):
    """A digital sheet's printed cards: its Sponsored Adventurer and the orders now in its shoppe."""

    adventurer: str | None = Field(None, max_length=40)
    shop: list[str] = Field(default_factory=list, max_length=8)  # orders as printed, "Fiery Ring of the Elves"
