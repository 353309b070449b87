"""Merchants of Magick's own demands on its content, beyond each field's type: every name one file
gives another (a column's dice, a row's columns, an order's item and enchantments, an adventurer's
items, a mastery's column) must exist; every circle must be reachable by some die its column
accepts with at most `POTIONS_AT_MOST` potions, and every order fillable. Pure: the companion runs
it too."""

from __future__ import annotations

from collections.abc import Iterable

from pnp.content.loader import Content
from pnp.content.problems import Problem, expected_got
from pnp.games.merchants_of_magick.kinds import Masteries, ShoppeSheet
from pnp.games.merchants_of_magick.rules import meets

POTIONS_AT_MOST = 3  # a circle no die reaches even with this many potions is a mistake


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
    faces = {d.id: d.faces for d in sheet.dice}
    unreachable: set[str] = set()  # rows holding a circle no result can mark
    for side, group in (("crafting", sheet.materials), ("research", sheet.energies)):
        columns = {c.id: c for c in group}
        for i, row in enumerate(getattr(sheet, side)):
            for column_id, thresholds in row.circles.items():
                column = columns.get(column_id)
                if column is None:
                    continue  # reported above
                dice = [d for d in column.dice if d in faces]
                for k, threshold in enumerate(thresholds):
                    if reachable(side, threshold, [faces[d] for d in dice]):
                        continue
                    unreachable.add(row.name)
                    best = max((faces[d] for d in dice), default=0)
                    least = "at least" if side == "crafting" else "at most"
                    problems.append(
                        content.problem(
                            "shoppe-sheet",
                            side,
                            i,
                            "circles",
                            column_id,
                            k,
                            message=(
                                f"{row.name}'s {threshold} in {column.name} needs a result of {least} {threshold}; "
                                f"its dice ({', '.join(dice) or 'none'}) reach {best} at most, "
                                f"{best + POTIONS_AT_MOST} with {POTIONS_AT_MOST} potions"
                                if side == "crafting"
                                else f"{row.name}'s {threshold} in {column.name} needs a result of {least} "
                                f"{threshold}; no die rolls below 1, {1 - POTIONS_AT_MOST} with "
                                f"{POTIONS_AT_MOST} potions"
                            ),
                        )
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
        never = [part for part in (order.item, order.prefix, order.suffix) if part in unreachable]
        if never:
            problems.append(
                content.problem(
                    "order-cards",
                    "cards",
                    i,
                    "item" if order.item in never else ("prefix" if order.prefix in never else "suffix"),
                    message=f"no sheet can ever fill this order: {' and '.join(never)} holds a circle no die reaches",
                )
            )
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


def reachable(side: str, threshold: int, faces: list[int]) -> bool:
    """Whether some die (1 to its faces) moved by at most POTIONS_AT_MOST potions meets the circle."""
    if side == "crafting":
        return any(meets(side, f + POTIONS_AT_MOST, threshold) for f in faces)
    return bool(faces) and meets(side, 1 - POTIONS_AT_MOST, threshold)
