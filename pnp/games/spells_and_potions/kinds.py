"""Spells and Potions content: the element suits, the Spells and Potions cards, the duel's rule
numbers, the score pad's words and the words code sets on cards."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from pnp.content.common import GameInfo, ReferenceCard, SetupSheet
from pnp.content.loader import Content, Kind
from pnp.content.markup import ICON_NAMES, RichText
from pnp.content.placeholders import Later
from pnp.content.validate import Strict, naming_each
from pnp.games.spells_and_potions.rules import SEATS, Scoring

CARD_TYPES = ("spell", "counter-spell", "potion", "antidote")
# What a card does to how its trick is won, for the trick judge (pnp.games.spells_and_potions.trick_judge): the
# card's name and words are the content's, so a renamed or translated card keeps its power.
CHANGES = ("lowest-wins", "ignore-trump", "winner-picks-leader", "winner-picks-trump")
# The situations the rules leave open, each settled by a ruling of ours in the content.
RULINGS = (
    "magic-lead",
    "reverse-and-trump",
    "reverse-and-shield",
    "blast-in-reverse",
    "two-blasts",
    "tie",
    "two-wizard-order",
    "tied-duel-leader",
)
COMPONENTS = ("elements", "magic", "reference", "markers", "score-pads")
IconName = Literal[ICON_NAMES]  # type: ignore[valid-type]


def _distinct(items: list[str]) -> list[str]:
    repeated = sorted({item for item in items if items.count(item) > 1})
    if repeated:
        raise ValueError(f"names that differ ({', '.join(map(repr, repeated))} given twice)")
    return items


class Suit(Strict):
    id: str = Field(pattern=r"^[a-z][a-z-]*$", max_length=40)
    name: str = Field(min_length=1, max_length=40)
    letter: str = Field(pattern=r"^[A-Z]$")  # printed beside the icon: colour is never the only cue
    icon: IconName
    motto: RichText = Field(max_length=300)


class ElementSuits(Strict):
    """kind: element-suits — the numbered element cards, one of each rank per suit."""

    kind: Literal["element-suits"]
    ranks: int = Field(ge=1, le=20)
    trump: str  # the suit id that is trump until a card changes it
    suits: list[Suit] = Field(min_length=1, max_length=12)


class MagicCard(Strict):
    name: str = Field(min_length=1, max_length=80)
    type: Literal[CARD_TYPES]  # type: ignore[valid-type]
    count: int = Field(ge=1, le=12)
    points: float = Field(0, ge=-100, le=100)  # potion points: added to (or taken from) the trick's value
    rank_bonus: float = Field(0, ge=-20, le=20)  # added to the rank of the player's team's element cards
    changes: Literal[CHANGES] | None = None  # type: ignore[valid-type]  # how it changes who wins the trick
    effect: RichText = Field(max_length=5000)  # may say {points} and {rank_bonus}
    flavour: RichText = Field("", max_length=300)


class MagicCards(Strict):
    """kind: magic-cards — the Spells and Potions cards; several files add to one deck."""

    kind: Literal["magic-cards"]
    cards: list[MagicCard] = Field(min_length=1, max_length=1000)


class Rulings(Strict):
    """kind: rulings — our own rulings where the rules leave a combination of cards open; the
    trick judge applies them and shows their words with its result."""

    kind: Literal["rulings"]
    rulings: Annotated[dict[Literal[RULINGS], RichText], naming_each(*RULINGS)]  # type: ignore[valid-type]


class DuelRules(Strict):
    """kind: duel-rules — the numbers a duel and a tournament are played with."""

    kind: Literal["duel-rules"]
    hands: int = Field(ge=2, le=8)  # hands dealt, the Companions' included
    magic_per_hand: int = Field(ge=0, le=20)  # Spells and Potions cards dealt to each hand
    points_per_trick: float = Field(ge=0, le=1000)
    duels: int = Field(ge=1, le=12)  # duels in a tournament


Short = Annotated[str, Field(min_length=1, max_length=20)]


class ScorePad(Strict):
    """kind: score-pad — every word on the tournament score pads; seats and rotation come from the rules."""

    kind: Literal["score-pad"]
    title: RichText = Field(max_length=80)
    players: Annotated[dict[Literal[2, 3, 4], str], naming_each(4, 3, 2)]  # what each pad is for, after the title
    heading: Annotated[RichText, Later("title", "players")]  # the top line: "{title} — {players}"
    how_to: RichText = Field(max_length=600)
    wizards: str  # the heading of the names block
    duel_scores: str
    wizard_scores: str
    notes: str
    duel: Annotated[str, Later("n")]  # a duel's name in the tables: "Duel {n}"
    leads: str  # the leader column, when seats rotate
    who_leads: str  # the same, when they do not
    leader: Annotated[str, Later("who", "seat")]  # a duel's leader in that column: "{who} ({seat})"
    chosen_first: str  # who picks the first leader when nobody is seated to lead
    chosen_later: Annotated[str, Later("n")]  # ... and in later duels: "chosen by the loser of duel {n}"
    wizard: str  # the first column of the totals
    total: str
    starts: Annotated[str, Later("seat")]  # beside a name: "starts {seat}"
    stays: str  # under a seat whose wizard never moves
    rotation: Annotated[RichText, Later("moving", "staying")]  # the compass's note when seats rotate
    no_rotation: RichText  # ... and when they do not
    joiner: Annotated[str, Later("first", "last")]  # a list's last two names: "{first} and {last}"
    seats: Annotated[dict[Literal[SEATS], str], naming_each(*SEATS)]  # type: ignore[valid-type]
    letters: Annotated[list[Short], Field(min_length=4, max_length=4), AfterValidator(_distinct)]  # wizard 1 to 4
    wizard_name: Annotated[str, Later("letter")]  # in the names block and the totals: "Wizard {letter}"
    companion: Short  # a Companion in a team or a seat: "Companion"
    own_companion: Annotated[str, Later("letter")]  # with two wizards, whose it is: "{letter}'s Companion"
    team: Annotated[str, Later("first", "second")]  # two partners: "{first} + {second}"


class Words(Strict):
    """kind: words — the words code sets on cards around the content's own."""

    kind: Literal["words"]
    trump: str  # the badge on trump cards
    card_types: Annotated[dict[Literal[CARD_TYPES], str], naming_each(*CARD_TYPES)]  # type: ignore[valid-type]
    element_back: str  # the title on the element cards' back: each back names its deck
    magic_back: str  # ... the Spells and Potions cards' back
    reference_back: str  # ... and the reference cards' back
    marker: str  # the big word on a trump marker, the card that shows the trump after a Trump Choice
    marker_note: RichText = Field(max_length=200)  # and its line: how the table uses it
    components: Annotated[dict[Literal[COMPONENTS], str], naming_each(*COMPONENTS)]  # type: ignore[valid-type]


KINDS = {
    "game": Kind(GameInfo),
    "element-suits": Kind(ElementSuits),
    "magic-cards": Kind(MagicCards, deck=True),
    "duel-rules": Kind(DuelRules),
    "rulings": Kind(Rulings),
    "reference-card": Kind(ReferenceCard),
    "score-pad": Kind(ScorePad, rich=True),
    "words": Kind(Words, rich=True),
    "setup": Kind(SetupSheet, rich=True),
}


def scoring(content: Content) -> Scoring:
    """How a duel scores: a trick for each card in a hand, so the tricks follow the deck's size."""
    duel: DuelRules = content["duel-rules"]
    suits: ElementSuits = content["element-suits"]
    deck = suits.ranks * len(suits.suits) + sum(card.count for card in content["magic-cards"].cards)
    return Scoring(tricks=deck // duel.hands, points_per_trick=duel.points_per_trick)


def rule_numbers(content: Content) -> dict[str, float]:
    """The rules' numbers by the placeholder names printed text uses."""
    duel: DuelRules = content["duel-rules"]
    suits: ElementSuits = content["element-suits"]
    return {
        "tricks": scoring(content).tricks,
        "points_per_trick": duel.points_per_trick,
        "duels": duel.duels,
        "hands": duel.hands,
        "magic_per_hand": duel.magic_per_hand,
        "ranks": suits.ranks,
    }
