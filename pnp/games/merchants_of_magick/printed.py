"""Merchants of Magick's print-and-play set: the setup page, shoppe sheets, order, adventurer and
mastery cards, potion tokens and the references. Every word and number comes from the content."""

from __future__ import annotations

from functools import partial

from pnp.components.card import Face, Value
from pnp.components.faces import reference_faces
from pnp.components.kinds import sheet_words
from pnp.components.makers import Makers, SetInputs, SheetDrawing
from pnp.content.loader import Content
from pnp.content.placeholders import fill
from pnp.games.merchants_of_magick.kinds import Words, rule_numbers


def order_faces(inputs: SetInputs, template: str) -> list[Face]:
    """Each order, as many times as its count; an order with a prefix and a suffix in the richer frame."""
    content = inputs.content
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
        # the richer frame is the deck template's variant, <template>-double
        faces += [Face(f"{template}-double" if double else template, tuple(values), label)] * order.count
    return faces


def adventurer_faces(inputs: SetInputs, template: str) -> list[Face]:
    content = inputs.content
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
        faces.append(Face(template, values, hero.name))
    return faces


def mastery_faces(inputs: SetInputs, template: str, side: str) -> list[Face]:
    """Each Mastery card's side: "master" (the front) or "apprentice" (the card's own back)."""
    content = inputs.content
    words: Words = content["words"]
    sheet = content["shoppe-sheet"]
    names = {c.id: c.name for c in (*sheet.materials, *sheet.energies)}
    faces = []
    for i, card in enumerate(content["mastery-cards"].cards):
        at = partial(content.locate, "mastery-cards", "cards", i)
        goal = sheet_words(words.mastery_goal, "mastery_goal", circles=card.circles, column=names[card.column])
        values = (
            Value("heading", words.material if card.type == "material" else words.energy),
            Value("name", card.name, *at("name")),
            Value("goal", goal, *at("circles")),
            Value("coin_word", words.coins, *content.locate("words", "coins")),
            Value("side", getattr(words, side)),
            Value("coins", str(getattr(card, side)), *at(side)),
        )
        faces.append(Face(template, values, f"{card.name} ({getattr(words, side)})"))
    return faces


def reference_and_solo_faces(inputs: SetInputs, template: str) -> tuple[Face, ...]:
    """The round references, then the solo card in the same frame."""
    return (*reference_faces(inputs, template), solo_face(inputs.content, template))


def solo_face(content: Content, template: str) -> Face:
    """The solo card: the solo lines with the rule numbers filled, then the ratings by score."""
    words: Words = content["words"]
    numbers = rule_numbers(content)
    lines = [fill(line, numbers)[0] for line in words.solo_lines]
    ratings = content["merchants-rules"].solo.ratings
    rated = "\n".join(f"{score}+ · {title}" for title, score in sorted(ratings.items(), key=lambda r: r[1]))
    body = "\n".join(lines) + f"\n**{words.ratings}**\n{rated}"
    return Face(
        template,
        (
            Value("title", words.solo_title, *content.locate("words", "solo_title")),
            Value("body", body, *content.locate("words", "solo_lines")),
        ),
        "solo card",
    )


def potion_faces(inputs: SetInputs, template: str) -> list[Face]:
    content = inputs.content
    faces = []
    for i, token in enumerate(content["potion-tokens"].tokens):
        at = partial(content.locate, "potion-tokens", "tokens", i)
        values = (
            Value("disc", token.colour, *at("colour")),
            Value("value", str(token.value), *at("value")),
            Value("name", token.name, *at("name")),
        )
        faces += [Face(template, values, f"potion {token.name}")] * token.count
    return faces


def _shoppe_sheet():
    """The sheet's drawing, imported only when the sheet is drawn."""
    from pnp.games.merchants_of_magick.shoppe_sheet import draw_shoppe_sheet

    return draw_shoppe_sheet


SHEETS = 4  # shoppe sheets in a default build, one per merchant of a usual table; --sheets N for more


def shoppe_sheets(inputs: SetInputs) -> SheetDrawing:
    """The shoppe sheets, one per merchant: --sheets of them (default SHEETS)."""

    def draw(canvas, area, template, page, printing):
        _shoppe_sheet()(canvas, area, template, inputs.content, printing.options.ink_saver)

    return SheetDrawing(inputs.sheets or SHEETS, draw, source="shoppe-sheet")


MAKERS = Makers(
    faces={
        "orders": order_faces,
        "adventurers": adventurer_faces,
        "mastery-masters": partial(mastery_faces, side="master"),
        "mastery-apprentices": partial(mastery_faces, side="apprentice"),
        "references": reference_and_solo_faces,
        "potions": potion_faces,
    },
    sheets={"shoppe-sheet": shoppe_sheets},
)
