"""Spells and Potions content: the element suits, the spell and potion cards, the score pad."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pnp.content.common import GameInfo, ReferenceCard
from pnp.content.loader import Kind
from pnp.content.validate import Strict


class Suit(Strict):
    id: str = Field(pattern=r"^[a-z][a-z-]*$")
    name: str
    letter: str = Field(pattern=r"^[A-Z]$")  # printed beside the icon: colour is never the only cue
    icon: str
    motto: str


class ElementSuits(Strict):
    """kind: element-suits — the numbered element cards, one of each rank per suit."""

    kind: Literal["element-suits"]
    ranks: int = Field(ge=1, le=20)
    trump: str  # the suit id that is trump until a card changes it
    suits: list[Suit] = Field(min_length=1)


class MagicCard(Strict):
    name: str = Field(min_length=1)
    type: Literal["spell", "counter-spell", "potion", "antidote"]
    count: int = Field(ge=1, le=12)
    effect: str  # rich text
    flavour: str = ""


class MagicCards(Strict):
    """kind: magic-cards — the Spells and Potions cards; several files add to one deck."""

    kind: Literal["magic-cards"]
    cards: list[MagicCard] = Field(min_length=1)


class ScorePad(Strict):
    """kind: score-pad — the words on the tournament score pads; seats and rotation come from the rules."""

    kind: Literal["score-pad"]
    title: str
    how_to: str
    duel_heading: str
    total_heading: str


KINDS = {
    "game": Kind(GameInfo),
    "element-suits": Kind(ElementSuits),
    "magic-cards": Kind(MagicCards, deck=True),
    "reference-card": Kind(ReferenceCard),
    "score-pad": Kind(ScorePad),
}
