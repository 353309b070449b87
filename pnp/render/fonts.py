"""TrueType fonts that ship inside reportlab, registered once: embedded and subset in every PDF."""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

_FONT_DIR = Path(reportlab.__file__).parent / "fonts"
# style -> (registered name, file); the Bitstream Vera family is the TrueType set reportlab ships.
STYLES = {
    "regular": ("Vera", "Vera.ttf"),
    "bold": ("Vera-Bold", "VeraBd.ttf"),
    "italic": ("Vera-Italic", "VeraIt.ttf"),
    "bold-italic": ("Vera-BoldItalic", "VeraBI.ttf"),
}
ASCENT = 0.93  # Vera's ascender and descender, as fractions of the font size
DESCENT = 0.24


@cache
def register() -> None:
    for name, filename in STYLES.values():
        pdfmetrics.registerFont(TTFont(name, str(_FONT_DIR / filename)))


def font_name(style: str) -> str:
    register()
    return STYLES[style][0]


@cache
def _charset(style: str) -> frozenset[int]:
    """The code points the style's font has glyphs for."""
    register()
    return frozenset(pdfmetrics.getFont(font_name(style)).face.charToGlyph)


def missing_characters(text: str, style: str) -> list[str]:
    """Characters of `text` the font cannot draw (they would print as empty boxes), in order.

    Bold and italic runs use sister fonts of the same family, which cover the same characters."""
    have = _charset(style)
    return list(dict.fromkeys(c for c in text if ord(c) not in have and not c.isspace()))


@lru_cache(maxsize=65536)  # layout and drawing measure the same words many times
def string_width(text: str, style: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, font_name(style), size)


def new_canvas(target, **kwargs) -> Canvas:
    """A deterministic canvas whose initial font is embedded too (reportlab's default,
    Helvetica, would otherwise be referenced unembedded on every page)."""
    register()
    return Canvas(target, invariant=1, pageCompression=1, initialFontName=STYLES["regular"][0], **kwargs)
