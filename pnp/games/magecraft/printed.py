"""Magecraft's printed set: the spell cards, each backed by its mastered side; the wizard's
reference cards and our rulings; a character board for each wizard; the gem tokens. Every word
and number comes from the content; every gem is drawn by the gems region (gem_region.py)
from its colour's ink (the house card template, mc-card), letter and symbol.

The makers by the names the set template (templates/magecraft/magecraft-set.yaml) uses: face
makers for the decks, a board maker giving each character's board.
"""

from __future__ import annotations

from functools import partial

from pnp.components.card import Face, Value
from pnp.components.faces import reference_faces, ruling_faces
from pnp.components.makers import Makers, SetInputs
from pnp.content.loader import Content
from pnp.games.magecraft.kinds import WILD, Effects, SetRules, SpellCard, Words

HOUSE = "mc-card"  # the house card template: an ink for each gem colour's id
GOLDEN = "golden"  # the house template's ink for a mastered spell's first gem
ICON_OF = {"heal": "heart"}  # an effect drawn by an icon of another name; the others by their own


def gem_text(content: Content, gem_id: str, golden: bool = False) -> str:
    """One gem as the gems region reads it: its ink (the colour's id, or the golden ink), letter
    and symbol; a Wild cost its own ink, the Wild letter and icon. An id that is no colour of the
    set (pnp check names it) prints in the card's ink with a question mark."""
    words: Words = content["words"]
    colours = {g.id: g for g in content["magecraft-set"].gems}
    if gem_id == WILD:
        ink, letter, symbol = WILD, words.wild_letter, "wild"
    elif gem_id in colours:
        gem = colours[gem_id]
        ink, letter, symbol = gem.id, gem.letter, gem.symbol
    else:
        ink, letter, symbol = "ink", "?", "question"
    return f"{GOLDEN if golden else ink} {letter} {symbol}"


def cost_text(content: Content, cost: list[str], mastered: bool = False) -> str:
    """A cost as a row of gems, left to right as it is paid; mastered, the first one golden."""
    return " | ".join(gem_text(content, gem, golden=mastered and i == 0) for i, gem in enumerate(cost))


def effects_text(effects: Effects) -> str:
    """The effects as rows, a row for each icon: the icon, then how many times it resolves as a
    number, so a card reads without counting icons or the reference card."""
    return "\n".join(f":{ICON_OF.get(icon, icon)}: **{n}**" for icon, n in effects.counts().items())


def spell_faces(inputs: SetInputs, template: str, mastered: bool = False) -> list[Face]:
    """Each spell, `copies` times (set.yaml), in the deck's order; `mastered`, its mastered side."""
    content = inputs.content
    copies = content["magecraft-set"].copies
    cards = content["spell-cards"].cards
    return [spell_face(content, i, card, template, mastered) for i, card in enumerate(cards) for _ in range(copies)]


def spell_face(content: Content, i: int, card: SpellCard, template: str, mastered: bool) -> Face:
    words: Words = content["words"]
    rules: SetRules = content["magecraft-set"]
    at = partial(content.locate, "spell-cards", "cards", i)
    said = partial(content.locate, "words")
    values = [
        Value("name", card.name, *at("name")),
        Value("cast_label", words.cast, *said("cast")),
        Value("cast", cost_text(content, card.cast, mastered), *at("cast")),
        Value("effects", effects_text(card.effects), *at("effects")),
    ]
    for field in ("starting", "basic"):  # a tab for the spells set out at every game's start
        if card.name.casefold() in (n.casefold() for n in getattr(rules, field)):
            values += [Value(f"{field}_badge", ""), Value("mark", getattr(words, field), *said(field))]
    if card.text:
        values.append(Value("text", card.text, *at("text")))
    if card.learn:
        values += [
            Value("learn_label", words.learn, *said("learn")),
            Value("learn", cost_text(content, card.learn), *at("learn")),
        ]
    if mastered:
        values += [Value("mastered_badge", ""), Value("mastered", words.mastered, *said("mastered"))]
    label = f"{card.name} ({words.mastered})" if mastered else card.name
    return Face(template, tuple(values), label)


def wizard_references(inputs: SetInputs, template: str) -> tuple[Face, ...]:
    """A set per wizard: the content's reference cards, each section led by its bold heading, then
    our rulings on cards of their own."""
    cards = reference_faces(inputs, template, inline=True)
    sets = inputs.content["reference-card"].copies
    per_set = len(cards) // sets
    rulings = tuple(ruling_faces(inputs, template))
    return tuple(face for k in range(sets) for face in (*cards[k * per_set : (k + 1) * per_set], *rulings))


def gem_faces(inputs: SetInputs, template: str) -> list[Face]:
    """Each colour's gems, as many as one copy of the game holds, colour by colour: its ink to the
    cut and a gem with its letter and symbol. The deck's backs are these same faces."""
    content = inputs.content
    palette = inputs.templates[HOUSE].colours
    faces = []
    for i, gem in enumerate(content["magecraft-set"].gems):
        at = partial(content.locate, "magecraft-set", "gems", i)
        values = (
            Value("fill", palette.get(gem.id, palette["ink"]), *at("id")),
            Value("gem", gem_text(content, gem.id), *at("id")),
        )
        faces += [Face(template, values, f"{gem.name} gem")] * gem.count
    return faces


def character_faces(inputs: SetInputs, template: str) -> list[Face]:
    """A board for each character, in the content's order."""
    return [character_face(inputs, template, i) for i in range(len(inputs.content["characters"].characters))]


def character_face(inputs: SetInputs, template: str, index: int) -> Face:
    """A wizard's board: who they are, their Cantrip, the HP Area's slots (the starting HP gems,
    a column a colour), the Score Area numbered to the score that wins, the phases in order, the
    spellbooks numbered, each with its room for tucked spells, the Shield and Discard Areas."""
    content = inputs.content
    words: Words = content["words"]
    rules: SetRules = content["magecraft-set"]
    character = content["characters"].characters[index]
    at = partial(content.locate, "characters", "characters", index)
    said = partial(content.locate, "words")
    cantrip = character.cantrip
    basic = [g.id for g in rules.gems if g.basic]
    row = " | ".join(gem_text(content, gem) for gem in basic)  # a row of each colour: a column a colour
    values = [
        Value("name", character.name, *at("name")),
        Value("title", character.title, *at("title")),
        Value("cantrip_label", f"{words.cantrip} · {cantrip.name}", *at("cantrip", "name")),
        Value("cantrip_gem", gem_text(content, cantrip.gem), *at("cantrip", "gem")),
        Value("cantrip_effects", effects_text(cantrip.effects).replace("\n", "  "), *at("cantrip", "effects")),
        Value("hp_label", f":heart: {words.hp}", *said("hp")),
        Value(
            "hp",
            "\n".join([row] * rules.hp_each),
            *content.locate("magecraft-set", "hp_each"),
        ),
        Value("score_label", words.score, *said("score")),
        Value(
            "score",
            f"1-{rules.score_to_win} start {rules.score_to_win}",
            *content.locate("magecraft-set", "score_to_win"),
        ),
        Value("shield_label", words.shield, *said("shield")),
        Value("shield_icon", "shield"),
        Value("discard_label", words.discard, *said("discard")),
        Value("spellbook_note", words.spellbook_note, *said("spellbook_note")),
    ]
    if character.story:
        values.append(Value("story", character.story, *at("story")))
    for n, phase in enumerate(words.phases, 1):
        values.append(Value(f"phase_{n}", f"{n} · {phase}", *said("phases", n - 1)))
    for n in range(1, rules.spellbooks + 1):
        values += [
            Value(f"spellbook_label_{n}", f"{words.spellbook} {n}", *said("spellbook")),
            Value(f"numeral_{n}", str(n)),
            Value(f"tuck_label_{n}", words.tuck, *said("tuck")),
        ]
    return Face(template, tuple(values), f"{character.name}'s board")


MAKERS = Makers(
    faces={
        "spells": spell_faces,
        "mastered": partial(spell_faces, mastered=True),
        "references": wizard_references,
        "gems": gem_faces,
    },
    boards={"characters": character_faces},
)
