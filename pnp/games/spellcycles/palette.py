"""Spellcycles' inks: each colour's, from the house card template, and whether marks on it read
better dark than light. The flat pieces (pnp.games.spellcycles.pieces) and the pyramid nets
(pnp.games.spellcycles.nets) both paint with them."""

from __future__ import annotations

from pnp.components.makers import SetInputs
from pnp.render.colours import legible_on, to_colour

HOUSE = "sc-card"  # the house card template: an ink for each colour id


def inks(inputs: SetInputs) -> dict[str, str]:
    """Each colour id -> its ink, #rrggbb, from the house template. A colour of a user's set.yaml
    that the template has no ink for prints in the card's ink, as on the spell cards' diagrams:
    its letter and symbol still say which it is."""
    palette = inputs.templates[HOUSE].colours
    return {c.id: palette.get(c.id, palette["ink"]) for c in inputs.content["spellcycles-set"].colours}


def marks_dark(ink: str, light: str, dark: str) -> bool:
    """Whether marks on this ink read better dark than light, as the spell cards' diagrams choose
    (yellow, white, and vermilion and bluish green too: white on them falls short of 4.5:1)."""
    return legible_on(to_colour(ink), to_colour(dark), to_colour(light)) == to_colour(dark)
