"""Rich text as content writes it: **bold**, *italic* and :icon: inline, one paragraph a line.

Pure parsing and validation, no fonts: the content models check text with it when they load
(so a mistake in one card never hides another's), and the renderer measures what it returns.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, NamedTuple

from pydantic import AfterValidator

from pnp.content.problems import Problem, closest, expected_got

if TYPE_CHECKING:  # a type only: parsing text needs no YAML reader
    from pnp.content.yamlsource import Source

# The icons a text may name inline and a template may place; drawn by pnp.render.icons.
ICON_NAMES: tuple[str, ...] = (
    "air", "always", "antidote", "attack", "coin", "counter", "credit", "die", "draw", "earth", "exclaim",
    "fire", "gem", "heart", "moon", "potion", "question", "shield", "spell", "spirit", "star", "trump",
    "vanish", "water", "wild",
)  # fmt: skip

STYLES = ("regular", "bold", "italic", "bold-italic")  # the body face's four, which markup moves between
FONTS = (*STYLES, "display")  # what a template's text region may name; display is one style, unmoved by markup
_TOKEN = re.compile(r"(\*\*|\*|:[a-z][a-z0-9-]*:|\s+|[^*:\s]+|:)")


class Run(NamedTuple):  # a tuple: many are made per card, and cheaply
    text: str  # the characters, or the icon name when `icon` is set
    style: str
    icon: bool = False


Word = tuple[Run, ...]


class MarkupError(ValueError):
    """Text that cannot be set as written: an unknown icon, a ** or * never closed."""


def combine(style: str, bold: bool, italic: bool) -> str:
    """The style a run takes: bold and italic add to the region's base style (display stays display)."""
    if style == "display":
        return style
    bold = bold or "bold" in style
    italic = italic or "italic" in style
    return STYLES[bold + 2 * italic]


def unknown_icon(name: str) -> str:
    """What was expected instead of icon `name`, as the middle of an `expected ..., got ...` message."""
    hint = closest(name, ICON_NAMES, cutoff=0.6)
    mean = f"; did you mean :{hint}:?" if hint else ""
    return f"an icon from {', '.join(ICON_NAMES)} (:{name}: is not one{mean})"


@lru_cache(maxsize=4096)
def parse(text: str, base_style: str = "regular") -> tuple[tuple[Word, ...], ...]:
    """Paragraphs (one a line) of words; a word never breaks. MarkupError names what is wrong."""
    paragraphs = []
    for number, para in enumerate(text.strip().split("\n"), 1):
        bold = italic = False
        style = combine(base_style, bold, italic)  # changes only where a ** or * does
        words: list[Word] = []
        current: list[Run] = []
        for token in _TOKEN.findall(para):
            if token == "**":
                bold = not bold
                style = combine(base_style, bold, italic)
            elif token == "*":
                italic = not italic
                style = combine(base_style, bold, italic)
            elif token.isspace():
                if current:
                    words.append(tuple(current))
                    current = []
            elif len(token) > 2 and token[0] == token[-1] == ":":
                name = token[1:-1]
                if name not in ICON_NAMES:
                    raise MarkupError(unknown_icon(name))
                current.append(Run(name, "regular", icon=True))
            else:
                current.append(Run(token, style))
        if bold or italic:
            marker = "**" if bold else "*"
            where = f" (line {number} leaves one open)" if "\n" in text.strip() else " (one is left open)"
            raise MarkupError(f"every {marker} closed on the line it opens{where}")
        if current:
            words.append(tuple(current))
        paragraphs.append(tuple(words))
    return tuple(p for p in paragraphs if p) or ((),)


def markup_problems(source: Source, plain: tuple[str, ...] = ()) -> list[Problem]:
    """A problem for every text in `source` whose markup cannot be set, but in its `plain` fields:
    for the kinds printed on sheet pages (Kind.rich), where text is set as rich text, typed `str` or not."""
    problems = []

    def walk(value, path: tuple) -> None:
        if path[:1] in (("kind",), *((name,) for name in plain)):
            return
        if isinstance(value, str):
            try:
                parse(value)
            except MarkupError as err:
                problems.append(Problem(*source.mark_for(path), expected_got(str(err), value)))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, (*path, index))

    walk(source.data, ())
    return problems


def _checked(text: str) -> str:
    try:
        parse(text)
    except MarkupError as err:
        raise ValueError(str(err)) from None
    return text


# A content field that is rich text: checked for its markup when the content loads.
RichText = Annotated[str, AfterValidator(_checked)]
