"""Faces every game builds the same way: the rules reference card and a titled card back."""

from __future__ import annotations

from pnp.components.card import Face, Value
from pnp.content.loader import Content


def reference_face(content: Content, template: str) -> Face:
    """The game's reference-card content as one face: its title, and its sections as a fitted body."""
    ref = content["reference-card"]
    body = "\n".join(f"**{s.heading}**\n{s.text}" for s in ref.sections)
    return Face(
        template,
        (
            Value("title", ref.title, *content.locate("reference-card", "title")),
            Value("body", body, *content.locate("reference-card", "sections")),
        ),
        "reference card",
    )


def titled_back(template: str, title: str, emblem: str, corner: str | None = None) -> Face:
    """A deck's back: the game's title both ways up around an emblem, with corner icons if given."""
    corners = (Value("north", corner), Value("south", corner)) if corner else ()
    return Face(
        template,
        (Value("title", title), Value("title_turned", title), Value("emblem", emblem), *corners),
        f"{template} back",
    )
