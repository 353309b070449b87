"""Spellcycles content: the six colours, the set's and the rules' numbers, the spell deck with
each card's pattern, cost, prestige and effect (as words and as data), our rulings and the
printed words. The rules engine, the simulation, the printed set and the companion all read these."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, model_validator

from pnp.content.common import GameInfo, ReferenceCard, SetupSheet
from pnp.content.loader import Content, Kind
from pnp.content.markup import ICON_NAMES, RichText
from pnp.content.placeholders import Later, fill
from pnp.content.validate import Strict, naming_each

Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$", max_length=20)]
Name = Annotated[str, Field(min_length=1, max_length=40)]
SIZES = ("small", "medium", "large")  # smallest first: a cast reduces a piece to the size before it
# A pattern cell that is not a colour: a space that must be empty, a space whose piece (of any
# colour) the effect refers to, and a space the spell does not look at.
MARKERS = ("vacant", "marked", "gap")
PLACES = ("cauldron", "apothecary", "field")
Count = Annotated[int, Field(ge=1, le=20)]
# The numbers an effect's data may carry; its words name each as a placeholder ({count}), filled
# from the data when printed or shown, so the card says what the data does.
EFFECT_NUMBERS = ("amount", "count", "spaces", "if_paid")


class Colour(Strict):
    """A colour of pieces, with a second cue for greyscale prints and colour-blind players."""

    id: Id
    name: Name
    letter: str = Field(pattern=r"^[A-Z]$")
    symbol: Literal[ICON_NAMES]  # type: ignore[valid-type]


class Stash(Strict):
    """Pieces of each size in one colour's stash."""

    small: int = Field(ge=1, le=20)
    medium: int = Field(ge=1, le=20)
    large: int = Field(ge=1, le=20)


class Lines(Strict):
    """Spells dealt to the spell line for each length of game."""

    short: int = Field(ge=1, le=30)
    normal: int = Field(ge=1, le=30)
    long: int = Field(ge=1, le=30)


class ExtraCredit(Strict):
    """What a prestige certificate (a playing card) is worth when Extra Credit counts them."""

    number: int = Field(ge=0, le=20)  # 2 to 10
    royal: int = Field(ge=0, le=20)  # jack, queen, king
    ace: int = Field(ge=0, le=20)


class SetRules(Strict):
    """kind: spellcycles-set — the numbers the printed set and the rules are built from."""

    kind: Literal["spellcycles-set"]
    colours: list[Colour] = Field(min_length=2, max_length=8)
    knucklebone: dict[Annotated[int, Field(ge=1, le=6)], Id] = Field(min_length=6, max_length=6)  # a d6 face -> colour
    field: int = Field(ge=4, le=12)  # the casting field is field x field squares
    stash: Stash
    start_large: int = Field(ge=0, le=10)  # large pieces each player draws at the start
    refresh: int = Field(ge=0, le=10)  # essence taken at Refresh
    recolour: int = Field(ge=1, le=10)  # essence to change one piece's colour for one spell
    lines: Lines
    accelerando: int = Field(ge=0, le=10)  # essence for the extra piece
    duel_essence: int = Field(ge=1, le=50)  # each player's essence at the start of a Duel
    extra_credit: ExtraCredit
    double_plus: int = Field(ge=2, le=10)  # a certificate of the marker's suit counts this many times over
    essence_tokens: int = Field(ge=10, le=200)  # printed
    crescents: int = Field(ge=1, le=10)  # printed: one per player, for the largest table


# --- the effect vocabulary: what a spell does, as data the engine and the companion apply ---


class GainEssence(Strict):
    do: Literal["gain-essence"]
    amount: Count
    at_most_held: bool = False  # never more than the caster already holds ("double it, or ...")


class DrainEssence(Strict):
    """Essence taken from other players: one chosen player, or each of them, to the caster."""

    do: Literal["drain-essence"]
    amount: Count
    each: bool = False


class TakeCertificates(Strict):
    """Prestige certificates taken from one other player (up to `amount`), or drawn from the pile."""

    do: Literal["take-certificates"]
    amount: Count
    source: Literal["player", "pile"]


class MovePieces(Strict):
    """`count` pieces moved between places (as many as there are, and room for); `up_to`: the
    card says "up to", so fewer or none may be; `random`: drawn blind, not chosen. A piece put on
    the field goes to a vacant space the caster chooses."""

    do: Literal["move-pieces"]
    count: Count
    source: Literal[PLACES]  # type: ignore[valid-type]
    to: Literal[PLACES]  # type: ignore[valid-type]
    colour: Id | Literal["any"] = "any"
    size: Literal[SIZES + ("any",)] = "any"  # type: ignore[valid-type]
    random: bool = False
    up_to: bool = False
    if_paid: int | None = Field(None, ge=1, le=20)  # only when the caster paid this much essence

    @model_validator(mode="after")
    def _places_differ(self):
        if self.source == self.to:
            raise ValueError(f"a different place to move to than the source ({self.source})")
        return self


class SwapPieces(Strict):
    """Two pieces anywhere on the field change places."""

    do: Literal["swap-pieces"]


class MovePiece(Strict):
    """One piece next to the spell's piece of `beside` (any but the spell's own pieces) moves to a
    vacant space at most `spaces` away (counted as a king steps); `spaces: paid`: as many as the
    essence paid."""

    do: Literal["move-piece"]
    beside: Id
    spaces: Count | Literal["paid"]


class ReturnPieces(Strict):
    """Pieces sent back to the cauldron: the one in the marked space, every piece of the spell
    (but those of `keep`'s colour), or `count` anywhere on the field (`up_to`: fewer or none)."""

    do: Literal["return-pieces"]
    which: Literal["marked", "spell", "any"]
    keep: Id | None = None
    count: Count = 1
    up_to: bool = False


class MoveCrescent(Strict):
    """A moon crescent moved along the spell line: a rolled number of spells, or `spaces`."""

    do: Literal["move-crescent"]
    direction: Literal["back", "forward"]
    spaces: Count | Literal["roll"]


class RemoveCrescent(Strict):
    do: Literal["remove-crescent"]


Effect = Annotated[
    GainEssence | DrainEssence | TakeCertificates | MovePieces | SwapPieces | MovePiece | ReturnPieces
    | MoveCrescent | RemoveCrescent,
    Field(discriminator="do"),
]  # fmt: skip


def step_numbers(step: Strict) -> dict[str, int]:
    """The numbers an effect step's data gives (as written: a default is not the card's word)."""
    return {
        name: value
        for name in EFFECT_NUMBERS
        if name in step.model_fields_set and type(value := getattr(step, name)) is int
    }


# a pattern cell: a colour id or a marker; a list is a stack of colours, bottom first (SpellStackers)
def _cell(value: object) -> object:
    """One message for a cell that is neither a name nor a stack, not one per kind it is not."""
    if isinstance(value, list) and not 2 <= len(value) <= 5:
        raise ValueError(f"a stack of 2 to 5 colours, bottom first (this one has {len(value)})")
    if not isinstance(value, str | list):
        raise ValueError("a colour, a marker (vacant, marked, gap) or a stack: a list of colours")
    return value


Cell = Annotated[
    Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$")] | Annotated[list[Id], Field(min_length=2, max_length=5)],
    BeforeValidator(_cell),
]


def _essence(value: object) -> object:
    """One message for an essence cost of any wrong shape."""
    number = isinstance(value, int) and not isinstance(value, bool)
    choice = isinstance(value, list) and all(type(v) is int for v in value)
    if number and 0 <= value <= 20 or value == "n":
        return value
    if choice and len(value) >= 2 and value == sorted(set(value)) and 1 <= value[0] and value[-1] <= 20:
        return value
    raise ValueError("essence as a number from 0 to 20, a choice of two or more amounts smallest first ([1, 3]), or n")


class Cost(Strict):
    """What a spell asks before it is cast: essence (a number, a choice of numbers, or `n`: any
    number the caster chooses, which the effect then uses) and prestige certificates."""

    essence: Annotated[int | list[int] | Literal["n"], BeforeValidator(_essence)] = 0
    certificates: int = Field(0, ge=0, le=20)


class SpellCard(Strict):
    name: Name
    pattern: list[list[Cell]] = Field(min_length=1, max_length=12)  # rows, top first; short rows end in gaps
    cost: Cost = Cost()
    # our retune of the cost, played only at a table that opts into the Swift Time variant
    swift_time: Cost | None = None
    # Certificates for casting; omitted: the rules' number, one per piece the pattern needs. A
    # card giving another number must say so in its effect (pnp check holds it to that).
    prestige: int | None = Field(None, ge=0, le=20)
    effect: Annotated[RichText, Later(*EFFECT_NUMBERS)] = Field(min_length=3, max_length=400)
    # the effect as data, in order; omitted: a spell of your own the table resolves by hand
    does: list[Effect] | None = Field(None, max_length=6)
    duel: bool = False  # made for the Duel variant: drains and gains essence
    # cast at most once a game (its words say so): a spell sending crescents back could loop a game
    once_a_game: bool = False
    source: Literal["rules", "ours"] = "ours"  # the rules' own example, reworded, or one of ours

    def pieces(self) -> int:
        """The components the pattern needs: one per colour (a stack: per piece) and per marked space."""
        return sum(
            len(cell) if isinstance(cell, list) else cell not in ("vacant", "gap")
            for row in self.pattern
            for cell in row
        )

    def earns(self) -> int:
        """The prestige a cast earns: the card's own number, or the rules' (rules: "gain Prestige
        Certificates equal to the number of Spell Components required by the spell, unless the
        spell itself indicates otherwise")."""
        return self.pieces() if self.prestige is None else self.prestige

    def effect_words(self) -> str:
        """The effect's words with each number placeholder ({count}) filled from its data, as the
        card prints them and a phone shows them; a spell without data as written."""
        return fill(self.effect, self.effect_numbers(), keep=EFFECT_NUMBERS)[0]

    def effect_numbers(self) -> dict[str, int]:
        """The numbers the effect's data gives, by placeholder name, each from the first step giving
        it: what the effect's words are filled with."""
        found: dict[str, int] = {}
        for step in self.does or ():
            for name, value in step_numbers(step).items():
                found.setdefault(name, value)
        return found


class SpellCards(Strict):
    """kind: spell-cards — the spell deck; several files add to one deck."""

    kind: Literal["spell-cards"]
    cards: list[SpellCard] = Field(min_length=1, max_length=500)


RULINGS = (
    "rotation", "marked", "gap", "edge", "vacant", "no-smaller", "stacks", "recolour", "same-spell",
    "empty-apothecary", "certificates-out", "crescent-back", "game-end", "duel-out", "diagonals",
    "duel-last-essence", "certificates-paid", "crescent-off", "killing-time",
)  # fmt: skip


class Rulings(Strict):
    """kind: rulings — our rulings where the Spellcycles rules are silent: the engine follows each,
    the reference card prints them and the companion shows them."""

    kind: Literal["rulings"]
    rulings: Annotated[dict[Literal[RULINGS], RichText], naming_each(*RULINGS)]  # type: ignore[valid-type]


class ComponentTitles(Strict):
    """What each printed component is called on its pages' labels."""

    spells: str
    blanks: str
    references: str
    field: str
    tokens_large: str
    tokens_medium: str
    tokens_small: str
    nets: str
    crescents: str
    essence: str
    knucklebone: str


class Words(Strict):
    """kind: words — the words code sets on cards and sheets around the content's own."""

    kind: Literal["words"]
    components: ComponentTitles
    requirements: str  # the label before a spell's cost
    free: str  # a spell with no cost
    essence: Annotated[str, Later("n")]  # "{n} Essence"
    certificates: Annotated[str, Later("n")]  # "{n} Certificates"
    one_certificate: str
    choice: str  # between essence amounts: "1 or 3"
    both: str  # between essence and certificates: "2 Essence and 1 Certificate"
    any_essence: str  # cost `n`
    swift_time: Annotated[str, Later("cost")]  # after the rules' cost: our Swift Time variant's
    prestige: str  # the label by the prestige a cast earns
    duel: str  # the mark on a Duel spell
    by_hand: str  # a spell with no effect data: the companion's note
    name: str  # a blank card's label for the spell's name
    effect: str  # ... and for what it does
    rulings: str  # the title of the reference cards that print our rulings
    rulings_more: str  # ... of the next one, when they take more than one card
    sizes: Annotated[dict[Literal[SIZES], str], naming_each(*SIZES)]  # type: ignore[valid-type]
    places: Annotated[dict[Literal[PLACES], str], naming_each(*PLACES)]  # type: ignore[valid-type]
    markers: Annotated[dict[Literal[MARKERS], str], naming_each(*MARKERS)]  # type: ignore[valid-type]
    knucklebone_note: RichText = Field(min_length=3, max_length=200)  # under the knucklebone table's title
    nets_note: RichText = Field(min_length=3, max_length=300)  # above each page of pyramid nets


KINDS = {
    "game": Kind(GameInfo),
    "spellcycles-set": Kind(SetRules),
    "spell-cards": Kind(SpellCards, deck=True),
    "reference-card": Kind(ReferenceCard),
    "words": Kind(Words, rich=True),
    "setup": Kind(SetupSheet, rich=True),
    "rulings": Kind(Rulings),
}


def rule_numbers(content: Content) -> dict[str, int]:
    """The rules' numbers by the placeholder names printed text uses."""
    setup: SetRules = content["spellcycles-set"]
    stash = setup.stash
    return {
        "field": setup.field,
        "stash": stash.small + stash.medium + stash.large,
        "stash_small": stash.small,
        "stash_medium": stash.medium,
        "stash_large": stash.large,
        "start_large": setup.start_large,
        "refresh": setup.refresh,
        "recolour": setup.recolour,
        "short_line": setup.lines.short,
        "normal_line": setup.lines.normal,
        "long_line": setup.lines.long,
        "accelerando": setup.accelerando,
        "duel_essence": setup.duel_essence,
        "number_points": setup.extra_credit.number,
        "royal_points": setup.extra_credit.royal,
        "ace_points": setup.extra_credit.ace,
        "double_plus": setup.double_plus,
        "essence_tokens": setup.essence_tokens,
        "crescents": setup.crescents,
        "colours": len(setup.colours),
    }
