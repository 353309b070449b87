"""Spellcycles' printed playing pieces: the casting field, flat spell components, the fold-up
pyramid nets, moon crescents, essence tokens and the knucklebone table. Every colour's name,
letter and symbol comes from the content (set.yaml), its ink from the house card template
(sc-card), every size from the templates.

The makers by the names the set template uses: FACES (decks), SHEETS (the nets), BOARDS (the field).
"""

from __future__ import annotations

from functools import partial

from pnp.components.card import Face, Value
from pnp.components.makers import SetInputs, SheetDrawing
from pnp.games.spellcycles.kinds import SIZES, SetRules
from pnp.games.spellcycles.nets import NetPages
from pnp.games.spellcycles.palette import inks, marks_dark


def field_face(inputs: SetInputs, template: str) -> list[Face]:
    """The casting field, one: its template's grid is the whole of it; the content gives it no words."""
    return [Face(template, (), "casting field")]


def token_faces(inputs: SetInputs, template: str, size: str) -> list[Face]:
    """A colour's stash of one size as flat tokens, colour by colour: filled with its ink and marked
    with its letter and symbol (the template adds the size's pips), in the template's -dark variant
    where dark marks read better on the ink. The deck's backs are these same faces, so a token
    reads either way up."""
    content = inputs.content
    rules: SetRules = content["spellcycles-set"]
    count = getattr(rules.stash, size)
    faces = []
    for i, colour in enumerate(rules.colours):
        at = partial(content.locate, "spellcycles-set", "colours", i)
        ink = inks(inputs)[colour.id]
        values = (
            Value("fill", ink, *at("id")),
            Value("letter", colour.letter, *at("letter")),
            Value("symbol", colour.symbol, *at("symbol")),
        )
        marks = (inputs.templates[t].colours["mark"] for t in (template, f"{template}-dark"))
        variant = f"{template}-dark" if marks_dark(ink, *marks) else template
        faces += [Face(variant, values, f"{colour.name} {size} component")] * count
    return faces


def crescent_faces(inputs: SetInputs, template: str) -> list[Face]:
    """The moon crescents, as many as the set says (one a player at the largest table)."""
    return [Face(template, (Value("moon", "moon"),), "moon crescent")] * inputs.content["spellcycles-set"].crescents


def essence_faces(inputs: SetInputs, template: str) -> list[Face]:
    """The essence pool's tokens, as many as the set says."""
    return [Face(template, (Value("gem", "gem"),), "essence")] * inputs.content["spellcycles-set"].essence_tokens


def knucklebone_face(inputs: SetInputs, template: str) -> list[Face]:
    """The knucklebone table: each face of the die, top to bottom, with the colour it picks in its
    ink, its symbol, letter and name."""
    content = inputs.content
    rules: SetRules = content["spellcycles-set"]
    colours = {c.id: c for c in rules.colours}
    words = content["words"]
    values = [
        Value("title", words.components.knucklebone, *content.locate("words", "components", "knucklebone")),
        Value("note", words.knucklebone_note, *content.locate("words", "knucklebone_note")),
    ]
    for face, colour_id in sorted(rules.knucklebone.items()):
        colour = colours[colour_id]
        at = content.locate("spellcycles-set", "knucklebone", face)
        values += [
            Value(f"face_{face}", str(face), *at),
            Value(f"swatch_{face}", inks(inputs)[colour_id], *at),
            Value(f"symbol_{face}", colour.symbol, *at),
            Value(f"name_{face}", f"{colour.letter} · {colour.name}", *at),
        ]
    return [Face(template, tuple(values), "knucklebone table")]


def net_sheets(inputs: SetInputs) -> SheetDrawing:
    """The pyramid nets, a full stash of every colour, smallest first (pnp.games.spellcycles.nets)."""
    nets = NetPages(inputs)
    return SheetDrawing(nets.pages, nets.draw, source="words")


FACES = {
    **{f"tokens-{size}": partial(token_faces, size=size) for size in SIZES},
    "crescents": crescent_faces,
    "essence": essence_faces,
}
SHEETS = {"nets": net_sheets}
BOARDS = {"field": field_face}
