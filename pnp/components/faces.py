"""Faces every game builds the same way: the rules reference card and a deck's back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.components.card import Face, Value
from pnp.content.loader import Content
from pnp.content.problems import Mark
from pnp.render.templates import Back

if TYPE_CHECKING:  # set_list puts faces together: it imports this module
    from pnp.components.set_list import SetInputs


def reference_faces(inputs: SetInputs, template: str) -> tuple[Face, ...]:
    """The game's reference cards, a set per player: each card's title, and its sections as a
    fitted body. A face maker (pnp.components.set_list) every game may name."""
    content = inputs.content
    ref = content["reference-card"]
    cards = tuple(
        Face(
            template,
            (
                Value("title", card.title, *content.locate("reference-card", "cards", i, "title")),
                Value(
                    "body",
                    "\n".join(f"**{s.heading}**\n{s.text}" for s in card.sections),
                    *content.locate("reference-card", "cards", i, "sections"),
                ),
            ),
            f"reference card {card.title}",
        )
        for i, card in enumerate(ref.cards)
    )
    return cards * ref.copies


def content_field(content: Content, dotted: str):
    """The content value a set template names by its dotted field (game.title, words.components.spells);
    LookupError when there is none."""
    kind, *path = dotted.split(".")
    try:
        value = content[kind]
    except KeyError:
        raise LookupError(dotted) from None
    for step in path:
        if isinstance(value, dict):
            if step not in value:
                raise LookupError(dotted)
            value = value[step]
        elif step in getattr(type(value), "model_fields", {}):
            value = getattr(value, step)
        else:
            raise LookupError(dotted)
    return value


def deck_back(content: Content, back: Back, emblem_at: Mark) -> Face:
    """A deck's one back: its title (a content field) both ways up if it has one, around an emblem,
    with corner icons if given. A title that cannot print is reported where it was written, an
    emblem or corner icon at `emblem_at`, the back's place in the set template."""
    titled = ()
    if back.title is not None:
        title = content_field(content, back.title)
        mark, field = content.locate(*back.title.split("."))
        titled = (Value("title", title, mark, field), Value("title_turned", title, mark, field))
    corners = (Value("north", back.corner, emblem_at), Value("south", back.corner, emblem_at)) if back.corner else ()
    return Face(back.template, (*titled, Value("emblem", back.emblem, emblem_at), *corners), f"{back.template} back")
