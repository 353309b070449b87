"""Faces every game builds the same way: the rules reference card and a titled card back."""

from __future__ import annotations

from pnp.components.card import Face, Value
from pnp.content.loader import Content


def reference_faces(content: Content, template: str) -> tuple[Face, ...]:
    """The game's reference cards, a set per player: each card's title, and its sections as a
    fitted body."""
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


def titled_back(
    content: Content, template: str, emblem: str, corner: str | None = None, title: tuple = ("game", "title")
) -> Face:
    """A deck's back: a title (the game's, or the content field at `title`) both ways up around an
    emblem, with corner icons if given. A title that cannot print is reported where it was written."""
    kind, *path = title
    model = content[kind]
    for step in path:
        model = getattr(model, step)
    mark, field = content.locate(kind, *path)
    corners = (Value("north", corner), Value("south", corner)) if corner else ()
    return Face(
        template,
        (
            Value("title", model, mark, field),
            Value("title_turned", model, mark, field),
            Value("emblem", emblem),
            *corners,
        ),
        f"{template} back",
    )
