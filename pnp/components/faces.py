"""Faces every game builds the same way: the rules reference cards, our rulings on cards of their
own, and a deck's back."""

from __future__ import annotations

from pnp.components.card import Face, Value
from pnp.components.makers import SetInputs
from pnp.components.templates import Back
from pnp.content.loader import Content
from pnp.content.problems import Mark
from pnp.regions import text as text_region


def reference_faces(inputs: SetInputs, template: str, inline: bool = False) -> tuple[Face, ...]:
    """The game's reference cards, a set per player: each card's title, and its sections as a
    fitted body, each heading on a line of its own or, `inline`, leading its paragraph in bold (a
    card holds more). A face maker (pnp.components.set_list) every game may name."""
    content = inputs.content
    ref = content["reference-card"]
    between = " " if inline else "\n"
    cards = tuple(
        Face(
            template,
            (
                Value("title", card.title, *content.locate("reference-card", "cards", i, "title")),
                Value(
                    "body",
                    "\n".join(f"**{s.heading}**{between}{s.text}" for s in card.sections),
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


def ruling_faces(inputs: SetInputs, template: str) -> list[Face]:
    """Our rulings (content kind `rulings`), in their file's order, on as few cards as hold them
    at the body region's smallest size, shared out evenly so no card is crammed; the first card
    titled words.rulings, the next ones words.rulings_more. A face maker every game may name."""
    content = inputs.content
    words = content["words"]
    body = inputs.templates[template].regions["body"]
    rulings = list(content["rulings"].rulings.values())
    fits = lambda group: text_region.fit(body, "\n".join(group)) is not None
    cards: list[list[str]] = [[]]
    for ruling in rulings:  # as few cards as will do: fill each
        if cards[-1] and not fits([*cards[-1], ruling]):
            cards.append([])
        cards[-1].append(ruling)
    even = _shared_out(rulings, len(cards))
    if all(fits(group) for group in even):
        cards = even
    at = content.locate("rulings", "rulings")
    faces = []
    for i, texts in enumerate(cards):
        field = "rulings" if i == 0 else "rulings_more"
        title = getattr(words, field)
        values = (Value("title", title, *content.locate("words", field)), Value("body", "\n".join(texts), *at))
        faces.append(Face(template, values, f"reference card {title}"))
    return faces


def _shared_out(texts: list[str], parts: int) -> list[list[str]]:
    """The texts in order in `parts` runs of about equal length: a run ends once it reaches its share."""
    share, groups, length = sum(map(len, texts)) / parts, [[]], 0
    for text in texts:
        if groups[-1] and length + len(text) / 2 > share * len(groups) and len(groups) < parts:
            groups.append([])
        groups[-1].append(text)
        length += len(text)
    return groups
