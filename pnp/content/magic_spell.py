"""Magic Spell content: the spell deck, the numbers the set is built from, the turn reference."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from pnp.content.common import GameInfo, ReferenceCard
from pnp.content.loader import Kind
from pnp.content.validate import Strict

# The rules' own words: an effect is written with them, so it only touches what the game has.
RULE_TERMS = (
    "spirit",
    "cabinet",
    "laboratory",
    "homework",
    "spellbook",
    "weave",
    "scrounge",
    "research",
    "rest",
    "ingredient",
    "spell",
    "credit",
    "turn",
)


class SpellCard(Strict):
    word: str = Field(pattern=r"^[A-Za-z]{5,13}$")  # the magic word, spelled with ingredient tiles
    # As printed; must agree with the credit rule (pnp check). Omitted: the rule decides, which
    # is what your own spells want, as adding spells changes the tile mix and so letter rarity.
    credits: int | None = Field(None, ge=1, le=3)
    definition: str = Field(min_length=3)  # one line: what the word means
    mode: Literal["always", "cast"]  # always on once in your spellbook, or cast on your turn
    cost: int = Field(0, ge=0, le=9)  # spirit to cast
    effect: str = Field(min_length=3)
    unmet: str = ""  # what happens when a cast spell's requirement cannot be met

    @model_validator(mode="after")
    def _cast_fields(self):
        if self.mode == "always" and self.cost:
            raise ValueError("cost 0 for an always-on spell (only cast spells cost spirit)")
        if self.mode == "cast" and not self.unmet:
            raise ValueError("an `unmet` line for a cast spell: what happens when it cannot be met")
        return self


class SpellCards(Strict):
    """kind: spell-cards — the spell deck; several files add to one deck."""

    kind: Literal["spell-cards"]
    cards: list[SpellCard] = Field(min_length=1)


class Credits(Strict):
    rare_at_most: int = Field(ge=0)
    rare_bonus: int = Field(ge=0)
    two_credits_from: int = Field(ge=1)
    three_credits_from: int = Field(ge=1)


class Spirit(Strict):
    start: int = Field(ge=0)
    track_to: int = Field(ge=1)


class SetRules(Strict):
    """kind: magic-spell-set — the numbers the printed set is built from."""

    kind: Literal["magic-spell-set"]
    letter_tiles: int = Field(ge=26, le=400)  # the tile mix is derived from the deck to this total
    philosophers_stones: list[str] = Field(min_length=0, max_length=6)  # icon names
    players: int = Field(ge=1, le=8)  # spirit track and turn reference cards, one each
    courseload: list[int] = Field(min_length=1)  # credits to win: normal, then Heavy Courseload
    credits: Credits
    spirit: Spirit


KINDS = {
    "game": Kind(GameInfo),
    "spell-cards": Kind(SpellCards, deck=True),
    "magic-spell-set": Kind(SetRules),
    "reference-card": Kind(ReferenceCard),
}
