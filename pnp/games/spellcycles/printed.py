"""Spellcycles' printed cards: the spell cards with their pattern diagrams, blank spell cards to
write on, and each wizard's reference cards (the content's, then our rulings). Every word and
number comes from the content; the diagram's drawing is the pattern region's (pattern_region.py).
The playing pieces' makers (field, tokens, nets, crescents, essence, knucklebone table) are
pnp.games.spellcycles.pieces'; MAKERS holds both."""

from __future__ import annotations

from functools import partial

from pnp.components.card import Face, Value
from pnp.components.faces import ruling_faces
from pnp.components.makers import Makers, SetInputs
from pnp.content.loader import Content
from pnp.content.placeholders import fill
from pnp.games.spellcycles import pieces
from pnp.games.spellcycles.kinds import MARKERS, Cost, SetRules, SpellCard, Words

BLANKS = 9  # blank spell cards: one sheet of the 9-up imposition
KNUCKLEBONE = "sc-knucklebone"  # the knucklebone table's template, printed after the reference sets


def spell_faces(inputs: SetInputs, template: str) -> list[Face]:
    content, inks = inputs.content, set(inputs.templates[template].colours)
    return [spell_face(content, inks, i, card, template) for i, card in enumerate(content["spell-cards"].cards)]


def spell_face(content: Content, inks: set[str], i: int, card: SpellCard, template: str) -> Face:
    words: Words = content["words"]
    at = partial(content.locate, "spell-cards", "cards", i)
    values = [
        Value("name", card.name, *at("name")),
        Value("pattern", pattern_text(content, inks, card.pattern), *at("pattern")),
        Value("requirements", requirements_line(card, words), *at("cost")),
        Value("effect", card.effect_words(), *at("effect")),
        Value("prestige", str(card.earns()), *at("prestige" if card.prestige is not None else "pattern")),
        Value("prestige_word", words.prestige, *content.locate("words", "prestige")),
    ]
    if card.duel:
        values += [Value("duel_badge", ""), Value("duel", words.duel, *content.locate("words", "duel"))]
    return Face(template, tuple(values), card.name)


def pattern_text(content: Content, inks: set[str], pattern: list[list[str | list[str]]]) -> str:
    """The pattern as the pattern region reads it: a row a line, a colour as its ink (the colour's
    id, named in the card template's `inks`), letter and symbol, a marker with its printed word. A
    short row ends in gaps, as the content's shape says. A colour of a user's set.yaml that the
    template has no ink for prints in the card's ink: its letter and symbol still say which it is."""
    colours = {c.id: c for c in content["spellcycles-set"].colours}
    markers = content["words"].markers
    width = max(map(len, pattern))

    def cell(value: str | list[str]) -> str:
        if isinstance(value, list):
            return " + ".join(cell(v) for v in value)
        if value in MARKERS:
            return f"{value} {markers[value]}"
        colour = colours.get(value)
        if colour is None:
            return value  # not a colour of the set (pnp check says so): the region reports it too
        return f"{colour.id if colour.id in inks else 'ink'} {colour.letter} {colour.symbol}"

    return "\n".join(" | ".join(cell(v) for v in row + ["gap"] * (width - len(row))) for row in pattern)


def requirements_line(card: SpellCard, words: Words) -> str:
    """ "Requires: 6 Essence", and our Swift Time variant's cost after it where the card has one."""
    line = f"**{words.requirements}:** {requirements(card.cost, words)}"
    if card.swift_time is not None:
        line += " · " + fill(words.swift_time, {"cost": requirements(card.swift_time, words)})[0]
    return line


def requirements(cost: Cost, words: Words) -> str:
    """The cost in words: none, "2 Essence", "1 or 3 Essence", "any Essence (n)", certificates."""
    parts = []
    if cost.essence == "n":
        parts.append(words.any_essence)
    elif isinstance(cost.essence, list):
        amounts = f" {words.choice} ".join(str(n) for n in cost.essence)
        parts.append(fill(words.essence, {"n": amounts})[0])
    elif cost.essence:
        parts.append(fill(words.essence, {"n": cost.essence})[0])
    if cost.certificates == 1:
        parts.append(words.one_certificate)
    elif cost.certificates:
        parts.append(fill(words.certificates, {"n": cost.certificates})[0])
    return f" {words.both} ".join(parts) or words.free


def blank_faces(inputs: SetInputs, template: str) -> list[Face]:
    """Spell cards to write on in pencil: the labels of a spell card over an empty grid and lines."""
    content = inputs.content
    words: Words = content["words"]
    at = partial(content.locate, "words")
    values = (
        Value("name_label", words.name, *at("name")),
        Value("requirements_label", f"{words.requirements}:", *at("requirements")),
        Value("prestige_word", words.prestige, *at("prestige")),
        Value("effect_label", words.effect, *at("effect")),
    )
    return [Face(template, values, "blank spell card")] * BLANKS


def wizard_references(inputs: SetInputs, template: str) -> tuple[Face, ...]:
    """A set per wizard, then one large knucklebone table for all (pnp.games.spellcycles.pieces).
    A set: the content's reference cards, each section a paragraph led by its bold heading (a card
    holds more than with headings on lines of their own), the knucklebone table added to the first
    card, where Renew rolls it; then our rulings, on as many cards as they need."""
    content = inputs.content
    ref = content["reference-card"]
    words: Words = content["words"]
    table = f"**{words.components.knucklebone}:** {knucklebone(content)}"
    cards = []
    for i, card in enumerate(ref.cards):
        at = partial(content.locate, "reference-card", "cards", i)
        body = [f"**{s.heading}** {s.text}" for s in card.sections] + ([table] if i == 0 else [])
        values = (Value("title", card.title, *at("title")), Value("body", "\n".join(body), *at("sections")))
        cards.append(Face(template, values, f"reference card {card.title}"))
    table = pieces.knucklebone_face(inputs, KNUCKLEBONE)  # one for the table, as the die is
    return (*cards, *ruling_faces(inputs, template)) * ref.copies + tuple(table)


def knucklebone(content: Content) -> str:
    """The d6 faces and their colours, each with its symbol and letter: "1 :fire: Red (R) · 2 ..."."""
    setup: SetRules = content["spellcycles-set"]
    colours = {c.id: c for c in setup.colours}
    return " · ".join(
        f"**{face}** :{colours[c].symbol}: {colours[c].name}" for face, c in sorted(setup.knucklebone.items())
    )


MAKERS = Makers(
    faces={
        "spells": spell_faces,
        "blanks": blank_faces,
        "references": wizard_references,
        **pieces.FACES,
    },
    sheets=pieces.SHEETS,
    boards=pieces.BOARDS,
)
