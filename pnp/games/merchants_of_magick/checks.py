"""Merchants of Magick's own demands on its content, beyond each field's type: every name one file
gives another (a column's dice, a row's columns, an order's item and enchantments, an adventurer's
items, a mastery's column) must exist. Pure: the companion runs it too."""

from __future__ import annotations

from collections.abc import Iterable

from pnp.content.loader import Content
from pnp.content.problems import Problem, expected_got
from pnp.games.merchants_of_magick.kinds import Masteries, ShoppeSheet


def one_of(names: Iterable[str]) -> str:
    return "one of " + ", ".join(names)


def check(content: Content) -> list[Problem]:
    sheet: ShoppeSheet = content["shoppe-sheet"]
    problems: list[Problem] = []

    def need(value: str, allowed: list[str], what: str, kind: str, *path) -> None:
        if value not in allowed:
            problems.append(content.problem(kind, *path, message=expected_got(f"{what} ({one_of(allowed)})", value)))

    dice = [d.id for d in sheet.dice]
    for side in ("materials", "energies"):
        for i, column in enumerate(getattr(sheet, side)):
            for j, die in enumerate(column.dice):
                need(die, dice, "a die of the sheet", "shoppe-sheet", side, i, "dice", j)
    materials = [c.id for c in sheet.materials]
    energies = [c.id for c in sheet.energies]
    for side, columns in (("crafting", materials), ("research", energies)):
        for i, row in enumerate(getattr(sheet, side)):
            for column in row.circles:
                need(column, columns, f"a {side} column", "shoppe-sheet", side, i, "circles", column)
    for i, spell in enumerate(sheet.research):
        charm = spell.charm
        if (spell.type == "charm") != (charm is not None):
            wanted = "a charm: what it gives" if spell.type == "charm" else "no charm on an enchantment"
            problems.append(
                content.problem("shoppe-sheet", "research", i, "type", message=expected_got(wanted, spell.type))
            )
        elif charm and bool(charm.coins_per_order) != bool(charm.category):
            problems.append(
                content.problem(
                    "shoppe-sheet",
                    "research",
                    i,
                    "charm",
                    message="expected coins_per_order and category together (coins for each order of that category)",
                )  # fmt: skip
            )
    items = {row.name: row.category for row in sheet.crafting}
    prefixes = [s.name for s in sheet.research if s.type == "prefix"]
    suffixes = [s.name for s in sheet.research if s.type == "suffix"]
    for i, order in enumerate(content["order-cards"].cards):
        need(order.item, list(items), "an item of the sheet", "order-cards", "cards", i, "item")
        if order.prefix is None and order.suffix is None:
            problems.append(
                content.problem("order-cards", "cards", i, message="expected a prefix, a suffix or both; got neither")
            )
        if order.prefix is not None:
            need(order.prefix, prefixes, "a prefix enchantment", "order-cards", "cards", i, "prefix")
        if order.suffix is not None:
            need(order.suffix, suffixes, "a suffix enchantment", "order-cards", "cards", i, "suffix")
    for i, hero in enumerate(content["adventurer-cards"].cards):
        for category in ("accessory", "weapon", "armour"):
            of_kind = [name for name, c in items.items() if c == category]
            need(
                getattr(hero, category),
                of_kind,
                f"an {category} of the sheet",
                "adventurer-cards",
                "cards",
                i,
                category,
            )
        need(hero.enchantment, prefixes + suffixes, "an enchantment", "adventurer-cards", "cards", i, "enchantment")
    masteries: Masteries = content["mastery-cards"]
    for i, card in enumerate(masteries.cards):
        columns = materials if card.type == "material" else energies
        need(card.column, columns, f"a {card.type} column", "mastery-cards", "cards", i, "column")
        if card.apprentice > card.master:
            problems.append(
                content.problem(
                    "mastery-cards",
                    "cards",
                    i,
                    "apprentice",
                    message=expected_got(f"at most the Master side's {card.master} coins", card.apprentice),
                )  # fmt: skip
            )
    for kind in ("material", "energy"):
        if not any(card.type == kind for card in masteries.cards):
            problems.append(content.problem("mastery-cards", "cards", message=f"expected at least one {kind} mastery"))
    return problems
