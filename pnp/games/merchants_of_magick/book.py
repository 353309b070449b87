"""Merchants of Magick's book as plain frozen values: the sheet, the cards and the numbers of the
rules, as the content says them (built by pnp.games.merchants_of_magick.rulebook), read by the
rules engine (pnp.games.merchants_of_magick.rules)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

CRAFTING, RESEARCH = "crafting", "research"


class RuleError(ValueError):
    """A move the rules do not allow now, with the reason in words."""


@dataclass(frozen=True)
class Column:
    id: str
    name: str
    side: str  # crafting (a material) or research (an energy)
    dice: frozenset[str]


@dataclass(frozen=True)
class Circle:
    column: str
    threshold: int


@dataclass(frozen=True)
class Row:
    name: str
    side: str  # crafting or research
    kind: str  # an item's category (accessory, weapon, armour); a spell's prefix, suffix or charm
    coins: int
    circles: tuple[Circle, ...]  # column by column, left to right
    charm_potions: int = 0  # a charm's potions, gained when completed
    charm_coins: int = 0  # a charm's coins per fulfilled order of `charm_category`, at the end
    charm_category: str | None = None


@dataclass(frozen=True)
class Sheet:
    dice: tuple[tuple[str, int], ...]  # (id, faces)
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    extra_dice: tuple[int, ...]  # each Extra Dice slot's potion cost, in order

    @cached_property
    def index(self) -> dict[str, int]:
        return {row.name: i for i, row in enumerate(self.rows)}

    @cached_property
    def columns_by_id(self) -> dict[str, Column]:
        return {c.id: c for c in self.columns}

    @cached_property
    def takes(self) -> dict[str, tuple[tuple[int, int, Circle], ...]]:
        """For each die, the circles of the columns that take it: (row, circle, the circle)."""
        return {
            die: tuple(
                (i, k, spot)
                for i, row in enumerate(self.rows)
                for k, spot in enumerate(row.circles)
                if die in self.column(spot.column).dice
            )
            for die, _ in self.dice
        }

    def row(self, name: str) -> int:
        try:
            return self.index[name]
        except KeyError:
            raise RuleError(f"the sheet has no row {name}") from None

    def column(self, column_id: str) -> Column:
        return self.columns_by_id[column_id]

    def faces(self, die: str) -> int:
        return dict(self.dice)[die]


@dataclass(frozen=True)
class OrderCard:
    item: str
    prefix: str | None
    suffix: str | None
    coins: int

    @property
    def enchantments(self) -> tuple[str, ...]:
        return tuple(e for e in (self.prefix, self.suffix) if e)

    @property
    def double(self) -> bool:
        return self.prefix is not None and self.suffix is not None

    def __str__(self) -> str:
        return " ".join(p for p in (self.prefix, self.item, self.suffix) if p)


@dataclass(frozen=True)
class AdventurerCard:
    name: str
    items: tuple[tuple[str, str], ...]  # (category, item): an accessory, a weapon, an armour
    enchantment: str
    coins: int


@dataclass(frozen=True)
class MasteryCard:
    name: str
    type: str  # material or energy
    column: str
    circles: int
    master: int
    apprentice: int


@dataclass(frozen=True)
class Reward:
    potions: int = 0
    free_circles: int = 0
    card_coins: bool = False


@dataclass(frozen=True)
class Rules:
    rounds: int
    results_per_round: int
    potion_per_row: int
    orders_dealt: tuple[tuple[tuple[int, int], int], ...]
    redeal_doubles: int
    adventurer_rewards: tuple[Reward, ...]
    solo_shop: int
    solo_waiting: int
    ratings: tuple[tuple[str, int], ...]  # (title, least score), lowest first

    def rating(self, score: float) -> str | None:
        """The solo title a score earns, or None below the lowest."""
        earned = None
        for title, least in self.ratings:
            if score >= least:
                earned = title
        return earned


@dataclass(frozen=True)
class Book:
    sheet: Sheet
    rules: Rules
    orders: tuple[OrderCard, ...]
    adventurers: tuple[AdventurerCard, ...]
    masteries: tuple[MasteryCard, ...]

    @cached_property
    def order_index(self) -> dict[OrderCard, int]:
        """Each order's index in the deck, as a Table's `to_data` writes it (copies of one card are
        equal, so the first copy's): made once, not at every move of a replay."""
        return {order: i for i, order in reversed(list(enumerate(self.orders)))}
