"""Merchants of Magick's print-and-play set: the setup page, shoppe sheets, order, adventurer and
mastery cards, potion tokens and the references. Every word and number comes from the content."""

from __future__ import annotations

from functools import partial

from pnp.components.card import Face, Value
from pnp.components.faces import reference_faces, titled_back
from pnp.components.kinds import Component, Deck, Sheet, sheet_words
from pnp.components.setup_sheet import setup_sheet
from pnp.content.loader import Content
from pnp.content.placeholders import fill
from pnp.games.merchants_of_magick.kinds import Words, rule_numbers


def order_faces(content: Content) -> list[Face]:
    """Each order, as many times as its count; an order with a prefix and a suffix in the richer frame."""
    words: Words = content["words"]
    categories = {row.name: row.category for row in content["shoppe-sheet"].crafting}
    faces = []
    for i, order in enumerate(content["order-cards"].cards):
        at = partial(content.locate, "order-cards", "cards", i)
        double = order.prefix is not None and order.suffix is not None
        enchantments = "\n".join(e for e in (order.prefix, order.suffix) if e)
        values = [
            Value("heading", words.order, *content.locate("words", "order")),
            Value("item", order.item, *at("item")),
            Value("category", words.categories[categories.get(order.item, "accessory")]),
            Value("enchantments", enchantments, *at("prefix" if order.prefix else "suffix")),
            Value("coins", str(order.coins), *at("coins")),
            Value("coin_word", words.coins, *content.locate("words", "coins")),
        ]
        if double:
            values += [Value("double_badge", ""), Value("double", words.double, *content.locate("words", "double"))]
        label = " ".join(p for p in (order.prefix, order.item, order.suffix) if p)
        faces += [Face("mm-order-double" if double else "mm-order", tuple(values), label)] * order.count
    return faces


def adventurer_faces(content: Content) -> list[Face]:
    words: Words = content["words"]
    faces = []
    for i, hero in enumerate(content["adventurer-cards"].cards):
        at = partial(content.locate, "adventurer-cards", "cards", i)
        items = "\n".join(f"{words.categories[c]}: **{getattr(hero, c)}**" for c in ("accessory", "weapon", "armour"))
        values = (
            Value("heading", words.adventurer, *content.locate("words", "adventurer")),
            Value("name", hero.name, *at("name")),
            Value("items", items, *at("accessory")),
            Value("enchantment", hero.enchantment, *at("enchantment")),
            Value("coins", str(hero.coins), *at("coins")),
            Value("coin_word", words.coins, *content.locate("words", "coins")),
            *((Value("flavour", hero.flavour, *at("flavour")),) if hero.flavour else ()),
        )
        faces.append(Face("mm-adventurer", values, hero.name))
    return faces


def mastery_sides(content: Content) -> tuple[list[Face], list[Face]]:
    """Each Mastery card's Master side (the front) and Apprentice side (its own back)."""
    words: Words = content["words"]
    sheet = content["shoppe-sheet"]
    names = {c.id: c.name for c in (*sheet.materials, *sheet.energies)}
    fronts, backs = [], []
    for i, card in enumerate(content["mastery-cards"].cards):
        at = partial(content.locate, "mastery-cards", "cards", i)
        goal = sheet_words(words.mastery_goal, "mastery_goal", circles=card.circles, column=names[card.column])
        common = (
            Value("heading", words.material if card.type == "material" else words.energy),
            Value("name", card.name, *at("name")),
            Value("goal", goal, *at("circles")),
            Value("coin_word", words.coins, *content.locate("words", "coins")),
        )
        fronts.append(
            Face(
                "mm-mastery",
                (*common, Value("side", words.master), Value("coins", str(card.master), *at("master"))),
                f"{card.name} ({words.master})",
            )
        )
        backs.append(
            Face(
                "mm-mastery-apprentice",
                (*common, Value("side", words.apprentice), Value("coins", str(card.apprentice), *at("apprentice"))),
                f"{card.name} ({words.apprentice})",
            )
        )
    return fronts, backs


def solo_face(content: Content) -> Face:
    """The solo card: the solo lines with the rule numbers filled, then the ratings by score."""
    words: Words = content["words"]
    numbers = rule_numbers(content)
    lines = [fill(line, numbers)[0] for line in words.solo_lines]
    ratings = content["merchants-rules"].solo.ratings
    rated = "\n".join(f"{score}+ · {title}" for title, score in sorted(ratings.items(), key=lambda r: r[1]))
    body = "\n".join(lines) + f"\n**{words.ratings}**\n{rated}"
    return Face(
        "mm-reference",
        (
            Value("title", words.solo_title, *content.locate("words", "solo_title")),
            Value("body", body, *content.locate("words", "solo_lines")),
        ),
        "solo card",
    )


def potion_faces(content: Content) -> list[Face]:
    faces = []
    for i, token in enumerate(content["potion-tokens"].tokens):
        at = partial(content.locate, "potion-tokens", "tokens", i)
        values = (
            Value("disc", token.colour, *at("colour")),
            Value("value", str(token.value), *at("value")),
            Value("name", token.name, *at("name")),
        )
        faces += [Face("mm-potion", values, f"potion {token.name}")] * token.count
    return faces


def _shoppe_sheet():
    """The sheet's drawing, imported only when the sheet is drawn."""
    from pnp.games.merchants_of_magick.shoppe_sheet import draw_shoppe_sheet

    return draw_shoppe_sheet


SHEETS = 4  # shoppe sheets in a default build, one per merchant of a usual table; --sheets N for more


def components(content: Content, templates: dict, sheets: int | None = None) -> list[Component]:
    """The set, with `sheets` shoppe sheets (default SHEETS)."""
    named = content["words"].components
    fronts, apprentices = mastery_sides(content)
    potions = tuple(potion_faces(content))
    rest: list[Component] = [
        Sheet(
            "sheets",
            named["sheets"],
            "mm-sheet",
            sheets or SHEETS,
            lambda canvas, area, template, page, printing: _shoppe_sheet()(
                canvas, area, template, content, printing.options.ink_saver
            ),
            source="shoppe-sheet",
        ),
        Deck(
            "orders",
            named["orders"],
            "mm-order",
            tuple(order_faces(content)),
            titled_back(content, "mm-back", "coin", "star", title=("words", "order_back")),
        ),
        Deck(
            "adventurers",
            named["adventurers"],
            "mm-adventurer",
            tuple(adventurer_faces(content)),
            titled_back(content, "mm-back-adventurer", "shield", "star", title=("words", "adventurer_back")),
        ),
        # two-sided: each card's Apprentice side is its own back
        Deck("masteries", named["masteries"], "mm-mastery", tuple(fronts), None, tuple(apprentices)),
        Deck(
            "references",
            named["references"],
            "mm-reference",
            (*reference_faces(content, "mm-reference"), solo_face(content)),
            titled_back(content, "mm-back-reference", "question", "star"),
        ),
        # one side only: the sheet is glued to card stock before cutting (the setup page says so)
        Deck("potions", named["potions"], "mm-potion", potions, None),
    ]
    return [setup_sheet(content["setup"], rest, templates), *rest]
