"""Merchants of Magick content: the shoppe sheet (dice, columns, crafting and research rows, Extra
Dice, score box), the rule numbers, and the decks (orders, Sponsored Adventurers, Masteries, potion
tokens). The printed sheet, the simulation and the companion's digital sheet all read these."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from pnp.content.common import GameInfo, ReferenceCard, SetupSheet
from pnp.content.loader import Content, Kind
from pnp.content.markup import RichText
from pnp.content.placeholders import Later
from pnp.content.validate import Strict, naming_each

Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$", max_length=40)]
Name = Annotated[str, Field(min_length=1, max_length=40)]
CATEGORIES = ("accessory", "weapon", "armour")  # an item's category: orders and charms name it
# The score box's lines, in the rules' end-of-game order; the content names each one.
SCORE_LINES = ("crafting", "material-mastery", "research", "energy-mastery", "orders", "charms", "adventurer")
Threshold = Annotated[int, Field(ge=1, le=100)]
# Our rulings where the rules text is silent; the engine (rules.py) follows each one.
RULINGS = ("order-move", "deck-empty")


class Die(Strict):
    id: Id  # d6
    faces: int = Field(ge=2, le=100)  # rolls 1 to faces


class Column(Strict):
    id: Id
    name: Name
    dice: list[Id] = Field(min_length=1)  # the dice whose results may be spent in this column


class Row(Strict):
    """A row of circles: every circle marked completes it. `circles` maps a column id to the
    thresholds of its circles in this row, left to right."""

    name: Name
    coins: int = Field(ge=0, le=100)
    circles: dict[Id, list[Threshold]] = Field(min_length=1)


class Item(Row):
    category: Literal[CATEGORIES]  # type: ignore[valid-type]


class Charm(Strict):
    """What a completed charm gives: potions at once, or coins at the end for each fulfilled order
    of an item category (the Sponsored Adventurer's three included)."""

    potions: int = Field(0, ge=0, le=20)
    coins_per_order: int = Field(0, ge=0, le=20)
    category: Literal[CATEGORIES] | None = None  # type: ignore[valid-type]


class Spell(Row):
    type: Literal["prefix", "suffix", "charm"]
    charm: Charm | None = None  # what a charm gives; enchantments have none


class ShoppeSheet(Strict):
    """kind: shoppe-sheet — the player sheet: which die goes where, every row and its circles,
    the Extra Dice slots and the score box. Crafting circles need a result >= their number,
    research circles a result <= it."""

    kind: Literal["shoppe-sheet"]
    title: Name
    shoppe_name: str  # the blank for the shoppe's name
    dice: list[Die] = Field(min_length=1, max_length=8)
    materials: list[Column] = Field(min_length=1, max_length=4)  # crafting columns
    energies: list[Column] = Field(min_length=1, max_length=4)  # research columns
    crafting: list[Item] = Field(min_length=1, max_length=16)
    research: list[Spell] = Field(min_length=1, max_length=16)
    extra_dice: list[Annotated[int, Field(ge=0, le=20)]] = Field(max_length=8)  # each slot's potion cost
    score: Annotated[dict[Literal[SCORE_LINES], Name], naming_each(*SCORE_LINES)]  # type: ignore[valid-type]
    total: Name


class AdventurerReward(Strict):
    potions: int = Field(0, ge=0, le=20)
    free_circles: int = Field(0, ge=0, le=5)
    card_coins: bool = False  # the coins printed on the adventurer's card


class Solo(Strict):
    shop: int = Field(ge=1, le=8)  # orders in the shoppe
    waiting: int = Field(ge=0, le=8)  # orders waiting to enter it, to the right
    ratings: dict[Name, int] = Field(min_length=1)  # title -> the least score that earns it


class OrdersDealt(Strict):
    players: tuple[int, int]  # from, to
    orders: int = Field(ge=1, le=8)


class MerchantsRules(Strict):
    """kind: merchants-rules — the numbers a game is played with."""

    kind: Literal["merchants-rules"]
    rounds: int = Field(ge=1, le=15)  # the sheet's round grid leaves room to write a result for 15 at most
    results_per_round: int = Field(ge=1, le=8)  # results spent each round without Extra Dice
    potion_per_row: int = Field(ge=0, le=5)  # gained with each completed row
    orders_dealt: list[OrdersDealt] = Field(min_length=1)
    redeal_doubles: int = Field(ge=1, le=8)  # a hand with this many double-enchantment orders is dealt again
    adventurer_rewards: list[AdventurerReward] = Field(min_length=1, max_length=3)
    solo: Solo


class Order(Strict):
    item: Name  # a crafting row's name
    prefix: Name | None = None  # a prefix enchantment's name
    suffix: Name | None = None
    coins: int = Field(ge=0, le=100)
    count: int = Field(1, ge=1, le=12)


class Orders(Strict):
    """kind: order-cards — customers' orders; several files add to one deck."""

    kind: Literal["order-cards"]
    cards: list[Order] = Field(min_length=1, max_length=500)


class Adventurer(Strict):
    name: Name
    accessory: Name
    weapon: Name
    armour: Name
    enchantment: Name  # one prefix or suffix, on all three
    coins: int = Field(ge=0, le=100)
    flavour: RichText = Field("", max_length=200)


class Adventurers(Strict):
    """kind: adventurer-cards — the Sponsored Adventurers, one dealt to each player."""

    kind: Literal["adventurer-cards"]
    cards: list[Adventurer] = Field(min_length=1, max_length=100)


class Mastery(Strict):
    name: Name
    type: Literal["material", "energy"]
    column: Id
    circles: int = Field(ge=1, le=50)  # marked in that column
    master: int = Field(ge=0, le=100)  # coins on the Master side
    apprentice: int = Field(ge=0, le=100)  # and on the Apprentice side, once someone scored it


class Masteries(Strict):
    """kind: mastery-cards — the Material and Energy goals; each card's two sides."""

    kind: Literal["mastery-cards"]
    cards: list[Mastery] = Field(min_length=2, max_length=100)


class PotionToken(Strict):
    name: Name  # its colour's name
    colour: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]
    value: int = Field(ge=1, le=20)  # what it is worth when a big group counts by colour
    count: int = Field(ge=1, le=200)


class Potions(Strict):
    """kind: potion-tokens — the potions to print, enough for the most players."""

    kind: Literal["potion-tokens"]
    tokens: list[PotionToken] = Field(min_length=1, max_length=6)
    note: RichText = Field(max_length=300)  # the rules' suggestion for big groups


class MerchantsRulings(Strict):
    """kind: merchants-rulings — our own rulings where the rules text leaves a point open (which
    way "clockwise" moves a shoppe's line, a claim with the deck empty)."""

    kind: Literal["merchants-rulings"]
    rulings: Annotated[dict[Literal[RULINGS], RichText], naming_each(*RULINGS)]  # type: ignore[valid-type]


class Words(Strict):
    """kind: words — the words code sets around the content's own."""

    kind: Literal["words"]
    components: dict[str, str]
    order: str  # an order card's heading
    adventurer: str
    master: str  # a mastery card's two sides
    apprentice: str
    material: str
    energy: str
    mastery_goal: Annotated[RichText, Later("circles", "column")]  # "Mark {circles} circles in {column}"
    coins: str
    potion: str
    solo_title: str
    solo_lines: list[RichText] = Field(max_length=8)
    ratings: str  # above the solo ratings, which come from merchants-rules
    order_back: str
    adventurer_back: str
    mastery_back: str
    potion_back: str
    rounds: str  # the sheet's results grid heading
    extra_dice: str
    free: str
    adventurer_track: str
    potions_tally: str
    legend: str  # above the which-die-goes-where legend
    crafting: str
    research: str
    at_least: str  # beside crafting thresholds: ">="
    at_most: str
    tie_breaks: RichText
    # printed words the cards and the sheet set around numbers ({n}, {category} filled by code)
    double: str  # the badge of an order with a prefix and a suffix
    categories: Annotated[dict[str, Name], naming_each(*CATEGORIES)]  # type: ignore[valid-type]
    reward_potions: Annotated[str, Later("n")]  # an adventurer reward: "{n} potions"
    reward_circles: Annotated[str, Later("n")]
    reward_coins: str  # the reward of the card's own coins
    charm_potions: Annotated[str, Later("n")]  # a charm's effect in a few words
    charm_coins: Annotated[str, Later("n", "category")]
    extra_cost: Annotated[str, Later("n")]  # an Extra Dice slot that costs potions: "pay {n}"
    coins_short: str  # the coins column heading
    score: str  # the score box heading


KINDS = {
    "game": Kind(GameInfo),
    "shoppe-sheet": Kind(ShoppeSheet, rich=True),
    "merchants-rules": Kind(MerchantsRules),
    "order-cards": Kind(Orders, deck=True),
    "adventurer-cards": Kind(Adventurers),
    "mastery-cards": Kind(Masteries),
    "potion-tokens": Kind(Potions),
    "reference-card": Kind(ReferenceCard),
    "words": Kind(Words, rich=True),
    "merchants-rulings": Kind(MerchantsRulings),
    "setup": Kind(SetupSheet, rich=True),
}


def rule_numbers(content: Content) -> dict[str, float]:
    """The rules' numbers by the placeholder names printed text uses."""
    rules: MerchantsRules = content["merchants-rules"]
    return {
        "rounds": rules.rounds,
        "results_per_round": rules.results_per_round,
        "potion_per_row": rules.potion_per_row,
        "redeal_doubles": rules.redeal_doubles,
        "solo_shop": rules.solo.shop,
        "solo_waiting": rules.solo.waiting,
        "extra_dice": len(content["shoppe-sheet"].extra_dice),
        "free_extra_dice": sum(1 for cost in content["shoppe-sheet"].extra_dice if cost == 0),
    }
