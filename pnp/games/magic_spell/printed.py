"""Magic Spell's print-and-play set: spell cards, ingredient tiles derived from the deck,
spirit tracks and turn references. Every word and number comes from the content."""

from __future__ import annotations

import zlib

from pnp.components.card import Face, Value
from pnp.components.faces import reference_faces
from pnp.components.makers import Makers, SetInputs
from pnp.content.loader import Content
from pnp.games.magic_spell.checks import pool, printed_credits, spells
from pnp.games.magic_spell.kinds import SetRules, SpellCard, Words

TURNED_ALIKE = set("MWNZ")  # read as another letter upside down or turned: underlined


def spell_faces(inputs: SetInputs, template: str) -> list[Face]:
    content = inputs.content
    faces = zip(spells(content), printed_credits(content), strict=True)
    return [spell_face(content, i, card, credits, template) for i, (card, credits) in enumerate(faces)]


def spell_face(content: Content, i: int, card: SpellCard, credits: int, template: str) -> Face:
    words: Words = content["words"]
    at = lambda field: content.locate("spell-cards", "cards", i, field)
    locate_note = content.locate("words", "always_note")
    if card.mode == "always":
        mode = words.always
        seal = (Value("hexagon", ""), Value("hexagon_icon", "always"))
    else:
        mode = f"{words.cast_for} {card.cost} :spirit: {words.spirit}" if card.cost else words.cast_free
        seal = (Value("seal", ""), Value("seal_icon", "spirit"), Value("seal_cost", str(card.cost)))
    values = [
        Value("word", card.word.upper(), *at("word")),
        Value("credits", str(credits)),
        Value("credit_word", words.credit if credits == 1 else words.credits),
        Value("definition", card.definition, *at("definition")),
        Value("mode", mode, *at("mode")),
        Value("effect", card.effect, *at("effect")),
        Value("ornament", ornament(card, words)),
        Value("unmet", card.unmet or words.always_note, *(at("unmet") if card.unmet else locate_note)),
        *seal,
    ]
    return Face(template, tuple(values), card.word.upper())


def ornament(card: SpellCard, words: Words) -> str:
    """The card's own icon: chosen in content, or picked from the word so a reprint keeps it."""
    return card.ornament or words.ornaments[zlib.crc32(card.word.lower().encode()) % len(words.ornaments)]


def tile_faces(inputs: SetInputs, template: str) -> list[Face]:
    """The letter tiles the spells need, then the philosopher's stones."""
    content = inputs.content
    faces = []
    for letter, count in sorted(pool(content).items()):
        values = (Value("letter", letter),) + ((Value("underline", ""),) if letter in TURNED_ALIKE else ())
        faces += [Face(template, values, f"tile {letter}")] * count
    words: Words = content["words"]
    note = Value("note", words.stone, *content.locate("words", "stone"))
    variant = Value("variant", words.stone_variant, *content.locate("words", "stone_variant"))
    for stone in content["magic-spell-set"].philosophers_stones:
        faces.append(Face("ms-stone", (variant, Value("icon", stone), note), f"philosopher's stone {stone}"))
    return faces


def spirit_tracks(inputs: SetInputs, template: str) -> list[Face]:
    """A spirit track for each student (default: the set's players): a strip of spaces a bead or
    coin moves along."""
    content = inputs.content
    setup: SetRules = content["magic-spell-set"]
    words: Words = content["words"]
    spirit = setup.spirit
    track = Face(
        template,
        (
            Value("title", words.spirit, *content.locate("words", "spirit")),
            Value("icon", "spirit"),
            Value("track", f"0-{spirit.track_to} start {spirit.start}", *content.locate("magic-spell-set", "spirit")),
            Value("note", words.spirit_note, *content.locate("words", "spirit_note")),
        ),
        "spirit track",
    )
    return [track] * (inputs.sheets or setup.players)


MAKERS = Makers(
    faces={
        "spells": spell_faces,
        "references": reference_faces,
        "tiles": tile_faces,
        "spirit-tracks": spirit_tracks,
    }
)
