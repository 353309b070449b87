"""Merchants of Magick's own demands on its content, beyond each field's type: every name one file
gives another (a column's dice, a row's columns, an order's item and enchantments, an adventurer's
items, a mastery's column) must exist; every circle must be reachable by some die its column
accepts with at most `POTIONS_AT_MOST` potions, and every order fillable. Pure: the companion runs
it too."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pnp.content.loader import Content, run_checks
from pnp.content.problems import Problem, expected_got
from pnp.games.merchants_of_magick.kinds import Masteries, ShoppeSheet
from pnp.games.merchants_of_magick.rules import meets

POTIONS_AT_MOST = 3  # a circle no die reaches even with this many potions is a mistake


def one_of(names: Iterable[str]) -> str:
    return "one of " + ", ".join(names)


def check(content: Content) -> list[Problem]:
    """Each part's problems, those of the parts whose files validated even when others did not."""
    return run_checks(content, _sheet_problems, _order_problems, _adventurer_problems, _mastery_problems)


def _need(content: Content, value: str, allowed: list[str], what: str, kind: str, *path) -> Iterator[Problem]:
    """A problem if `value` is not one of the names `allowed`, with the nearest as a suggestion."""
    if value not in allowed:
        yield content.problem(kind, *path, message=expected_got(f"{what} ({one_of(allowed)})", value, allowed))


def _sheet_problems(content: Content) -> Iterator[Problem]:
    sheet: ShoppeSheet = content["shoppe-sheet"]
    dice = [d.id for d in sheet.dice]
    for side in ("materials", "energies"):
        for i, column in enumerate(getattr(sheet, side)):
            for j, die in enumerate(column.dice):
                yield from _need(content, die, dice, "a die of the sheet", "shoppe-sheet", side, i, "dice", j)
    materials = [c.id for c in sheet.materials]
    energies = [c.id for c in sheet.energies]
    for side, columns in (("crafting", materials), ("research", energies)):
        for i, row in enumerate(getattr(sheet, side)):
            for column in row.circles:
                yield from _need(
                    content, column, columns, f"a {side} column", "shoppe-sheet", side, i, "circles", column
                )
    for i, spell in enumerate(sheet.research):
        charm = spell.charm
        if (spell.type == "charm") != (charm is not None):
            wanted = "a charm: what it gives" if spell.type == "charm" else "no charm on an enchantment"
            yield content.problem("shoppe-sheet", "research", i, "type", message=expected_got(wanted, spell.type))
        elif charm and bool(charm.coins_per_order) != bool(charm.category):
            yield content.problem(
                "shoppe-sheet",
                "research",
                i,
                "charm",
                message="expected coins_per_order and category together (coins for each order of that category)",
            )
    for side, i, row, column_id, k, threshold, column, dice in _unreachable(sheet):
        best = max((die.faces for die in sheet.dice if die.id in dice), default=0)
        least = "at least" if side == "crafting" else "at most"
        yield content.problem(
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


def _unreachable(sheet: ShoppeSheet) -> Iterator[tuple]:
    """Each circle no result can mark: (side, row index, row, column id, circle index, threshold,
    column, the column's dice that the sheet has)."""
    faces = {d.id: d.faces for d in sheet.dice}
    for side, group in (("crafting", sheet.materials), ("research", sheet.energies)):
        columns = {c.id: c for c in group}
        for i, row in enumerate(getattr(sheet, side)):
            for column_id, thresholds in row.circles.items():
                column = columns.get(column_id)
                if column is None:
                    continue  # reported by _sheet_problems
                dice = [d for d in column.dice if d in faces]
                for k, threshold in enumerate(thresholds):
                    if not reachable(side, threshold, [faces[d] for d in dice]):
                        yield side, i, row, column_id, k, threshold, column, dice


def _order_problems(content: Content) -> Iterator[Problem]:
    sheet: ShoppeSheet = content["shoppe-sheet"]
    unreachable = {found[2].name for found in _unreachable(sheet)}  # rows holding a circle no result can mark
    items = [row.name for row in sheet.crafting]
    prefixes = [s.name for s in sheet.research if s.type == "prefix"]
    suffixes = [s.name for s in sheet.research if s.type == "suffix"]
    for i, order in enumerate(content["order-cards"].cards):
        yield from _need(content, order.item, items, "an item of the sheet", "order-cards", "cards", i, "item")
        if order.prefix is None and order.suffix is None:
            yield content.problem("order-cards", "cards", i, message="expected a prefix, a suffix or both; got neither")
        if order.prefix is not None:
            yield from _need(
                content, order.prefix, prefixes, "a prefix enchantment", "order-cards", "cards", i, "prefix"
            )
        if order.suffix is not None:
            yield from _need(
                content, order.suffix, suffixes, "a suffix enchantment", "order-cards", "cards", i, "suffix"
            )
        never = [part for part in (order.item, order.prefix, order.suffix) if part in unreachable]
        if never:
            yield content.problem(
                "order-cards",
                "cards",
                i,
                "item" if order.item in never else ("prefix" if order.prefix in never else "suffix"),
                message=f"no sheet can ever fill this order: {' and '.join(never)} holds a circle no die reaches",
            )


def _adventurer_problems(content: Content) -> Iterator[Problem]:
    sheet: ShoppeSheet = content["shoppe-sheet"]
    enchantments = [s.name for kind in ("prefix", "suffix") for s in sheet.research if s.type == kind]
    for i, hero in enumerate(content["adventurer-cards"].cards):
        for category in ("accessory", "weapon", "armour"):
            of_kind = [row.name for row in sheet.crafting if row.category == category]
            what = f"{'an' if category[0] in 'aeiou' else 'a'} {category} of the sheet"
            yield from _need(content, getattr(hero, category), of_kind, what, "adventurer-cards", "cards", i, category)
        yield from _need(
            content, hero.enchantment, enchantments, "an enchantment", "adventurer-cards", "cards", i, "enchantment"
        )


def _mastery_problems(content: Content) -> Iterator[Problem]:
    sheet: ShoppeSheet = content["shoppe-sheet"]
    masteries: Masteries = content["mastery-cards"]
    for i, card in enumerate(masteries.cards):
        columns = [c.id for c in (sheet.materials if card.type == "material" else sheet.energies)]
        yield from _need(content, card.column, columns, f"a {card.type} column", "mastery-cards", "cards", i, "column")
        if card.apprentice > card.master:
            yield content.problem(
                "mastery-cards",
                "cards",
                i,
                "apprentice",
                message=expected_got(f"at most the Master side's {card.master} coins", card.apprentice),
            )
    for kind in ("material", "energy"):
        if not any(card.type == kind for card in masteries.cards):
            yield content.problem("mastery-cards", "cards", message=f"expected at least one {kind} mastery")


def reachable(side: str, threshold: int, faces: list[int]) -> bool:
    """Whether some die (1 to its faces) moved by at most POTIONS_AT_MOST potions meets the circle."""
    if side == "crafting":
        return any(meets(side, f + POTIONS_AT_MOST, threshold) for f in faces)
    return bool(faces) and meets(side, 1 - POTIONS_AT_MOST, threshold)
