"""Lantern Charms content: the suits and the deal, the charm cards, and the words printed around them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from pnp.content.common import GameInfo, ReferenceCard, SetupSheet
from pnp.content.loader import Content, Kind
from pnp.content.markup import ICON_NAMES
from pnp.content.validate import Strict, naming_each

COMPONENTS = ("charms", "reference")
IconName = Literal[ICON_NAMES]  # type: ignore[valid-type]


class Suit(Strict):
    id: str = Field(pattern=r"^[a-z][a-z-]*$", max_length=20)  # what a card's `suit` names
    name: str = Field(min_length=1, max_length=20)
    icon: IconName  # printed with the name: colour is never the only cue


class CharmRules(Strict):
    """kind: charm-rules — the suits, and how many charms a hand is dealt."""

    kind: Literal["charm-rules"]
    hand: int = Field(ge=1, le=12)
    suits: list[Suit] = Field(min_length=2, max_length=6)


class Charm(Strict):
    name: str = Field(min_length=1, max_length=40)  # its identity at the table: no two charms share one
    suit: str  # a suit id of charm-rules
    number: int = Field(ge=1, le=9)


class CharmCards(Strict):
    """kind: charm-cards — the deck; several files add to it."""

    kind: Literal["charm-cards"]
    cards: list[Charm] = Field(min_length=1, max_length=60)


class Words(Strict):
    """kind: words — each back's title and the components' names."""

    kind: Literal["words"]
    charm_back: str
    reference_back: str
    components: Annotated[dict[Literal[COMPONENTS], str], naming_each(*COMPONENTS)]  # type: ignore[valid-type]


KINDS = {
    "game": Kind(GameInfo),
    "setup": Kind(SetupSheet, rich=True),
    "charm-rules": Kind(CharmRules),
    "charm-cards": Kind(CharmCards, deck=True),
    "reference-card": Kind(ReferenceCard),
    "words": Kind(Words),
}


def rule_numbers(content: Content) -> dict[str, int]:
    """The rules' numbers by the placeholder names printed text uses."""
    rules: CharmRules = content["charm-rules"]
    return {"hand": rules.hand, "suits": len(rules.suits), "cards": len(content["charm-cards"].cards)}
