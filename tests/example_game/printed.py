"""Lantern Charms' print-and-play set: its charm cards and the reference cards. Which decks the set
has, their templates and backs, is its set template's (templates/lantern-charms/lantern-charms-set.yaml)."""

from __future__ import annotations

from functools import partial

from pnp.components.card import Face, Value
from pnp.components.faces import reference_faces
from pnp.components.makers import Makers, SetInputs


def charm_faces(inputs: SetInputs, template: str) -> list[Face]:
    """A face for each charm: its number in two corners, its suit's icon and name, its own name.
    Each value carries where the content wrote it, so a text that cannot fit is reported there."""
    content = inputs.content
    suits = {suit.id: suit for suit in content["charm-rules"].suits}
    faces = []
    for i, card in enumerate(content["charm-cards"].cards):
        at = partial(content.locate, "charm-cards", "cards", i)
        suit = suits[card.suit]
        values = (
            Value("number", str(card.number), *at("number")),
            Value("number_turned", str(card.number), *at("number")),
            Value("icon", suit.icon, *at("suit")),
            Value("suit", suit.name.upper(), *at("suit")),
            Value("name", card.name, *at("name")),
        )
        faces.append(Face(template, values, card.name))
    return faces


MAKERS = Makers(faces={"charms": charm_faces, "references": reference_faces})
