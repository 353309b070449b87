"""Magic Spell content: the spell deck, the set's and the rules' numbers, the printed words."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from pnp.content.common import GameInfo, ReferenceCard, SetupSheet
from pnp.content.loader import Content, Kind
from pnp.content.markup import ICON_NAMES, RichText
from pnp.content.validate import Strict, naming_each

# The rules' own words: an effect is written with them, so it only touches what the game has.
RULE_TERMS = ("spirit", "cabinet", "laboratory", "homework", "spellbook", "weave", "scrounge",
              "research", "rest", "ingredient", "spell", "credit", "turn")  # fmt: skip
IconName = Literal[ICON_NAMES]  # type: ignore[valid-type]
Count = Field(ge=0, le=99)  # a rule number a player counts out: spirit, tiles, cards


class SpellCard(Strict):
    word: str = Field(pattern=r"^[A-Za-z]{5,13}$")  # the magic word, spelled with ingredient tiles
    # As printed; must agree with the credit rule (pnp check). Omitted: the rule decides, which
    # is what your own spells want, as adding spells changes the tile mix and so letter rarity.
    credits: int | None = Field(None, ge=1, le=3)
    definition: RichText = Field(min_length=3, max_length=200)  # one line: what the word means
    mode: Literal["always", "cast"]  # always on once in your spellbook, or cast on your turn
    cost: int = Field(0, ge=0, le=9)  # spirit to cast
    effect: RichText = Field(min_length=3, max_length=5000)
    unmet: RichText = Field("", max_length=500)  # what happens when a cast spell's requirement cannot be met
    ornament: IconName | None = None  # the card's art; omitted: picked from words.ornaments by the word
    # An effect that weaves, scrounges or completes a spell outside the Weave and Scrounge actions:
    # as the card is cast, or when its holder rests (an always-on card). The phone tracker then
    # records a spell completed that way, naming the card.
    weaves_when: Literal["cast", "rest"] | None = None

    @model_validator(mode="after")
    def _cast_fields(self):
        if self.mode == "always" and self.cost:
            raise ValueError("cost 0 for an always-on spell (only cast spells cost spirit)")
        if self.weaves_when == "cast" and self.mode != "cast":
            raise ValueError("weaves_when: rest for an always-on spell (only a cast spell weaves as it is cast)")
        if self.mode == "cast" and not self.unmet:
            raise ValueError("an `unmet` line for a cast spell: what happens when it cannot be met")
        return self


class SpellCards(Strict):
    """kind: spell-cards — the spell deck; several files add to one deck."""

    kind: Literal["spell-cards"]
    cards: list[SpellCard] = Field(min_length=1, max_length=1000)


class Credits(Strict):
    rare_at_most: int = Field(ge=0, le=99)
    rare_bonus: int = Field(ge=0, le=99)
    two_credits_from: int = Field(ge=1, le=99)
    three_credits_from: int = Field(ge=1, le=99)


class Spirit(Strict):
    """What spirit a student starts with, gains and spends: the numbers the rules use."""

    start: int = Count
    track_to: int = Field(ge=1, le=99)  # the printed track's last space
    rest: int = Count  # gained by the Rest action
    research: int = Count  # paid to Research
    weave_again: int = Count  # paid for each extra weave after the first
    move: int = Count  # paid to move an ingredient from one spell to another
    trade_remove: int = Count  # paid to take an ingredient off a partly woven spell to trade it
    recover: int = Count  # gained at the end of a turn ...
    recover_below: int = Count  # ... when below this


class Limits(Strict):
    cabinet: int = Field(ge=1, le=99)  # ingredients kept at the end of a turn
    homework: int = Field(ge=1, le=99)  # spells in hand at the end of a turn


class Start(Strict):
    ingredients: int = Count
    homework: int = Count


class SetRules(Strict):
    """kind: magic-spell-set — the numbers the printed set and the rules are built from."""

    kind: Literal["magic-spell-set"]
    letter_tiles: int = Field(ge=26, le=400)  # the tile mix is derived from the deck to this total
    philosophers_stones: list[Literal[ICON_NAMES]] = Field(max_length=6)  # type: ignore[valid-type]
    players: int = Field(ge=1, le=8)  # a spirit track each (reference-card sets its own copies)
    courseload: list[Annotated[int, Field(ge=1, le=99)]] = Field(
        min_length=3, max_length=3
    )  # credits to finish: normal, then Heavy Courseload
    credits: Credits
    spirit: Spirit
    limits: Limits
    start: Start


RULINGS = ("low-enrollment-trades",)


class Rulings(Strict):
    """kind: rulings — our rulings where the rules leave Magic Spell open; the tracker quotes them."""

    kind: Literal["rulings"]
    rulings: Annotated[dict[Literal[RULINGS], RichText], naming_each(*RULINGS)]  # type: ignore[valid-type]


class ComponentTitles(Strict):
    """What each printed component is called on its pages' labels."""

    spells: str
    tiles: str
    references: str
    spirit: str


class Words(Strict):
    """kind: words — the words code sets on cards around the content's own."""

    kind: Literal["words"]
    components: ComponentTitles
    always: str  # the banner of an always-on spell
    cast_for: str  # "CAST FOR" 2 :spirit: "SPIRIT"
    cast_free: str
    spirit: str
    credit: str  # one credit
    credits: str  # more than one
    stone: str  # under a philosopher's stone's symbol
    stone_variant: str  # above it: which variant the stone is for
    always_note: RichText  # where a cast spell says what happens when it cannot be met
    ornaments: list[IconName] = Field(min_length=1, max_length=len(ICON_NAMES))  # spell art, picked by the word
    spirit_note: RichText  # on the spirit track, with the rules' numbers as placeholders


KINDS = {
    "game": Kind(GameInfo),
    "spell-cards": Kind(SpellCards, deck=True),
    "magic-spell-set": Kind(SetRules),
    "reference-card": Kind(ReferenceCard),
    "words": Kind(Words, rich=True),
    "setup": Kind(SetupSheet, rich=True),
    "rulings": Kind(Rulings),
}


def rule_numbers(content: Content) -> dict[str, int]:
    """The rules' numbers by the placeholder names printed text uses."""
    setup: SetRules = content["magic-spell-set"]
    spirit, limits, start = setup.spirit, setup.limits, setup.start
    normal, heavy, heaviest = setup.courseload
    return {
        "start_spirit": spirit.start,
        "track_to": spirit.track_to,
        "rest_gain": spirit.rest,
        "research_cost": spirit.research,
        "weave_again_cost": spirit.weave_again,
        "move_cost": spirit.move,
        "trade_remove_cost": spirit.trade_remove,
        "recovery": spirit.recover,
        "recovery_below": spirit.recover_below,
        "cabinet_limit": limits.cabinet,
        "homework_limit": limits.homework,
        "start_ingredients": start.ingredients,
        "start_homework": start.homework,
        "courseload": normal,
        "heavy_courseload": heavy,
        "heaviest_courseload": heaviest,
        "letter_tiles": setup.letter_tiles,
        "philosophers_stones": len(setup.philosophers_stones),
    }
