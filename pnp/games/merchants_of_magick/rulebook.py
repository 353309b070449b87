"""The rules engine's book (plain frozen values, `pnp.games.merchants_of_magick.book`) from the content's
models: the one place that knows both, so the simulation and the companion build it the same way."""

from __future__ import annotations

from pnp.content.loader import Content
from pnp.games.merchants_of_magick.book import (
    CRAFTING,
    RESEARCH,
    AdventurerCard,
    Book,
    Circle,
    Column,
    MasteryCard,
    OrderCard,
    Reward,
    Row,
    Rules,
    Sheet,
)


def sheet_of(content: Content) -> Sheet:
    sheet = content["shoppe-sheet"]
    columns = tuple(
        Column(c.id, c.name, side, frozenset(c.dice))
        for side, group in ((CRAFTING, sheet.materials), (RESEARCH, sheet.energies))
        for c in group
    )
    rows = []
    for side, group in ((CRAFTING, sheet.crafting), (RESEARCH, sheet.research)):
        for row in group:
            circles = tuple(Circle(column, t) for column, ts in row.circles.items() for t in ts)
            kind = row.category if side == CRAFTING else row.type
            charm = getattr(row, "charm", None)
            rows.append(
                Row(
                    row.name,
                    side,
                    kind,
                    row.coins,
                    circles,
                    charm_potions=charm.potions if charm else 0,
                    charm_coins=charm.coins_per_order if charm else 0,
                    charm_category=charm.category if charm else None,
                )
            )
    return Sheet(tuple((d.id, d.faces) for d in sheet.dice), columns, tuple(rows), tuple(sheet.extra_dice))


def book_of(content: Content) -> Book:
    rules = content["merchants-rules"]
    orders = tuple(
        OrderCard(o.item, o.prefix, o.suffix, o.coins) for o in content["order-cards"].cards for _ in range(o.count)
    )
    heroes = tuple(
        AdventurerCard(
            h.name,
            (("accessory", h.accessory), ("weapon", h.weapon), ("armour", h.armour)),
            h.enchantment,
            h.coins,
        )
        for h in content["adventurer-cards"].cards
    )
    masteries = tuple(
        MasteryCard(c.name, c.type, c.column, c.circles, c.master, c.apprentice) for c in content["mastery-cards"].cards
    )
    return Book(
        sheet_of(content),
        Rules(
            rounds=rules.rounds,
            results_per_round=rules.results_per_round,
            potion_per_row=rules.potion_per_row,
            orders_dealt=tuple((tuple(b.players), b.orders) for b in rules.orders_dealt),
            redeal_doubles=rules.redeal_doubles,
            adventurer_rewards=tuple(Reward(r.potions, r.free_circles, r.card_coins) for r in rules.adventurer_rewards),
            solo_shop=rules.solo.shop,
            solo_waiting=rules.solo.waiting,
            ratings=tuple(sorted(rules.solo.ratings.items(), key=lambda kv: kv[1])),
        ),
        orders,
        heroes,
        masteries,
    )
