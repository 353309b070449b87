"""Magecraft content: the five gem colours, the rules' numbers (HP, score to win, hand, the seat
table, the Academy for 2, 3 and 4 players), the spell deck with each card's learn and cast costs
and its effects as icon counts, the characters and their Cantrips, our rulings and the printed
words. The rules engine, the simulation, the printed set and the companion all read these."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from pnp.content.common import GameInfo, ReferenceCard, SetupSheet
from pnp.content.loader import Content, Kind
from pnp.content.markup import ICON_NAMES, RichText
from pnp.content.validate import Strict, naming_each

Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$", max_length=20)]
Name = Annotated[str, Field(min_length=1, max_length=32)]
WILD = "wild"  # a cost gem any colour pays
# The rules' effect icons, in the order a card prints them. (The rules' sixth icon, Wild, is a
# cost: a gem of any colour pays it.)
ICONS = ("draw", "attack", "heal", "shield", "vanish")
# What an icon alone cannot say, as data the engine applies; the card's `text` says it in words.
SPECIALS = (
    "attack-each",  # each Attack hits every opponent still in the game, not one chosen
    "steal-shield",  # an Attack that hits a shield moves that gem to the caster's Shield Area
    "heal-from-discard",  # a Heal takes its gem from the caster's Discard Area, not the Academy
)
SEATS = 4  # the rules' seat table: the first to the fourth player
Small = Annotated[int, Field(ge=0, le=20)]


class Gem(Strict):
    """A gem colour, with a second cue for greyscale prints and colour-blind players."""

    id: Id
    name: Name
    letter: str = Field(pattern=r"^[A-Z]$")
    symbol: Literal[ICON_NAMES]  # type: ignore[valid-type]
    count: int = Field(ge=1, le=60)  # gems of this colour in one copy of the game
    basic: bool = True  # in the starting bag and the HP Area; Darkness is not


class Seat(Strict):
    """A seat's opening hand: gems drawn from the bag, then gems discarded from it."""

    draw: int = Field(ge=1, le=10)
    discard: int = Field(ge=0, le=10)

    @model_validator(mode="after")
    def _keeps_some(self):
        if self.discard >= self.draw:
            raise ValueError(f"fewer discards than draws (draw {self.draw}, discard {self.discard})")
        return self


class Melee(Strict):
    """The Academy at a larger table: copies of each spell and gems of each colour."""

    cards_per_spell: int = Field(ge=1, le=8)
    gems_per_colour: int = Field(ge=1, le=60)


class SetRules(Strict):
    """kind: magecraft-set — the numbers the printed set and the rules are built from."""

    kind: Literal["magecraft-set"]
    gems: list[Gem] = Field(min_length=2, max_length=8)
    hp_each: int = Field(ge=1, le=10)  # gems of each basic colour in the HP Area: HP is this x the basic colours
    bag_each: int = Field(ge=1, le=10)  # gems of each basic colour in the starting bag
    score_to_win: int = Field(ge=1, le=60)
    hand: int = Field(ge=1, le=10)  # gems drawn at Refresh
    revision: int = Field(ge=1, le=10)  # gems discarded from hand to revise
    spellbooks: int = Field(ge=1, le=5)
    copies: int = Field(ge=1, le=4)  # printed cards of each spell in one copy of the game
    starting: list[Name] = Field(min_length=1, max_length=5)  # one in each spellbook, in order
    basic: list[Name] = Field(min_length=0, max_length=10)  # in every Academy
    random_sets: int = Field(ge=0, le=30)  # further spells dealt to the Academy
    academy_gems: int = Field(ge=0, le=60)  # gems of each colour in a 2-player Academy
    seats: list[Seat] = Field(min_length=SEATS, max_length=SEATS)  # the first seat's first
    melee: dict[Literal[3, 4], Melee] = Field(min_length=2, max_length=2)  # by player count

    @model_validator(mode="after")
    def _one_starting_spell_a_book(self):
        if len(self.starting) != self.spellbooks:
            raise ValueError(
                f"one starting spell for each of the {self.spellbooks} spellbooks (found {len(self.starting)})"
            )
        return self


# a cost gem: a colour's id or "wild"
CostGem = Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$", max_length=20)]


class Effects(Strict):
    """A spell's effect icons, each with how many times it resolves."""

    draw: Small = 0
    attack: Small = 0
    heal: Small = 0
    shield: Small = 0
    vanish: Small = 0

    def counts(self) -> dict[str, int]:
        """Each icon with a count, in the printed order."""
        return {icon: n for icon in ICONS if (n := getattr(self, icon))}


class SpellCard(Strict):
    name: Name
    learn: list[CostGem] = Field(default_factory=list, max_length=6)  # discarded from hand to learn it
    cast: list[CostGem] = Field(min_length=1, max_length=6)  # paid left to right; mastered, the first is golden
    effects: Effects
    special: Literal[SPECIALS] | None = None  # type: ignore[valid-type]
    text: RichText = Field("", max_length=160)  # what the icons cannot say; a special needs it
    # A cast cost a hand of the rules' size cannot pay (it needs Draws earlier in its spellbook or
    # a golden gem): allowed only when said here, so pnp check catches it elsewhere.
    beyond_hand: bool = False
    source: Literal["rules", "ours"] = "ours"  # a spell the rules name, or one of ours

    @model_validator(mode="after")
    def _does_something(self):
        if not self.effects.counts():
            raise ValueError("at least one effect icon (draw, attack, heal, shield or vanish)")
        if self.special and not self.text:
            raise ValueError(f"text saying what {self.special} does")
        return self


class SpellCards(Strict):
    """kind: spell-cards — the spell deck, each spell once (the set prints `copies` of each);
    several files add to one deck."""

    kind: Literal["spell-cards"]
    cards: list[SpellCard] = Field(min_length=1, max_length=200)


class Cantrip(Strict):
    """A character's inborn spell: one gem, its effect icons."""

    name: Name
    gem: CostGem
    effects: Effects

    @model_validator(mode="after")
    def _does_something(self):
        if not self.effects.counts():
            raise ValueError("at least one effect icon (draw, attack, heal, shield or vanish)")
        return self


class Character(Strict):
    name: Name
    title: str = Field(min_length=1, max_length=40)  # under the name: who they are
    story: RichText = Field("", max_length=200)  # a line on the board
    cantrip: Cantrip


class Characters(Strict):
    """kind: characters — the character boards."""

    kind: Literal["characters"]
    characters: list[Character] = Field(min_length=2, max_length=8)


RULINGS = (
    "learn-gems",
    "cast-gems",
    "golden-end",
    "golden-match",
    "cantrip",
    "heal-empty",
    "shield-empty",
    "bag-empty",
    "targets",
    "wild",
)


class Rulings(Strict):
    """kind: rulings — our rulings where the Magecraft rules are silent: the engine follows each,
    the reference card prints them and the companion shows them."""

    kind: Literal["rulings"]
    rulings: Annotated[dict[Literal[RULINGS], RichText], naming_each(*RULINGS)]  # type: ignore[valid-type]


class ComponentTitles(Strict):
    """What each printed component is called on its pages' labels."""

    spells: str
    spells_more: str  # the second copy's cards, for 3-4 players
    characters: str
    gems: str
    gems_more: str  # the second copy's gems, for 3-4 players
    references: str


class Words(Strict):
    """kind: words — the words code sets on cards, boards and sheets around the content's own."""

    kind: Literal["words"]
    components: ComponentTitles
    learn: str  # the label before a learn cost
    cast: str  # ... before a cast cost
    starting: str  # the mark on a starting spell
    basic: str  # ... on a spell in every Academy
    mastered: str  # the mark on a card's mastered side
    wild_letter: str = Field(pattern=r"^\S$")  # a Wild cost gem's letter, as a colour's letter
    cantrip: str  # the label of a character's Cantrip
    hp: str  # the board's areas
    shield: str
    score: str
    discard: str
    spellbook: str  # "Spellbook" (numbered on the board)
    spellbook_note: str  # under the spellbooks: where learned spells go, how they are cast
    tuck: str  # in the room left of each spellbook, where learned spells are tucked
    phases: list[str] = Field(min_length=4, max_length=4)  # Discard Shield, Casting, Learning or Revision, Refresh
    rulings: str  # the first rulings reference card's title
    rulings_more: str  # ... the next ones'


KINDS = {
    "game": Kind(GameInfo),
    "magecraft-set": Kind(SetRules),
    "spell-cards": Kind(SpellCards, deck=True),
    "characters": Kind(Characters),
    "reference-card": Kind(ReferenceCard),
    "words": Kind(Words, rich=True, plain=("wild_letter",)),
    "setup": Kind(SetupSheet, rich=True),
    "rulings": Kind(Rulings),
}


def rule_numbers(content: Content) -> dict[str, int]:
    """The rules' numbers by the placeholder names printed text uses."""
    rules: SetRules = content["magecraft-set"]
    basic = sum(g.basic for g in rules.gems)
    numbers = {
        "hp": rules.hp_each * basic,
        "hp_each": rules.hp_each,
        "bag": rules.bag_each * basic,
        "bag_each": rules.bag_each,
        "score_to_win": rules.score_to_win,
        "hand": rules.hand,
        "revision": rules.revision,
        "spellbooks": rules.spellbooks,
        "copies": rules.copies,
        "random_sets": rules.random_sets,
        "academy_gems": rules.academy_gems,
        "academy_sets": len(rules.basic) + rules.random_sets,
        "gems": sum(g.count for g in rules.gems),
    }
    for players, melee in rules.melee.items():
        numbers[f"cards_per_spell_{players}"] = melee.cards_per_spell
        numbers[f"gems_per_colour_{players}"] = melee.gems_per_colour
    for seat, opening in enumerate(rules.seats, 1):
        numbers[f"seat{seat}_draw"] = opening.draw
        numbers[f"seat{seat}_discard"] = opening.discard
    return numbers
