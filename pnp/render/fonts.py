"""The two type families, from font packages on PyPI, each style registered on first use; embedded
and subset in every PDF.

Body text is Noto Sans (Latin, Greek and Cyrillic); headings, titles and big numbers are EB Garamond,
which covers the same three scripts, so any text the body face can set a title can set too. Both
packages ship variable fonts only; reportlab needs static TrueType, so each style is pinned to one
instance with fontTools once and kept in the user's cache folder.
"""

from __future__ import annotations

import os
import sys
from functools import cache, lru_cache
from pathlib import Path

import fontpkg_eb_garamond
import fontpkg_noto_sans
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pnp.cache import installed

# style -> (registered name, package, variable font file, axis values of the instance)
STYLES = {
    "regular": ("NotoSans", fontpkg_noto_sans, "NotoSans[wdth,wght].ttf", {"wght": 400, "wdth": 100}),
    "bold": ("NotoSans-Bold", fontpkg_noto_sans, "NotoSans[wdth,wght].ttf", {"wght": 700, "wdth": 100}),
    "italic": ("NotoSans-Italic", fontpkg_noto_sans, "NotoSans-Italic[wdth,wght].ttf", {"wght": 400, "wdth": 100}),
    "bold-italic": (
        "NotoSans-BoldItalic",
        fontpkg_noto_sans,
        "NotoSans-Italic[wdth,wght].ttf",
        {"wght": 700, "wdth": 100},
    ),
    "display": ("EBGaramond-SemiBold", fontpkg_eb_garamond, "EBGaramond[wght].ttf", {"wght": 600}),
}


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "spellpress" / "fonts"


def static_instance(style: str) -> Path:
    """The style's static TrueType file, made from the package's variable font on first use
    (about a second per style) and named by the package's version, so an upgraded package makes a new one."""
    name, package, filename, axes = STYLES[style]
    version = installed().get(package.__name__, "unknown")
    path = _cache_dir() / f"{name}-{version}.ttf"
    if not path.exists():
        sys.stderr.write(f"Preparing font {name} for first use (once, kept in {path.parent})...\n")
        sys.stderr.flush()
        path.parent.mkdir(parents=True, exist_ok=True)
        font = instance(package.ROOT / "files" / filename, axes)
        rename(font, name)
        partial = path.with_suffix(f".{os.getpid()}.part")  # builds in parallel never read a half-written file
        font.save(partial)
        os.replace(partial, path)
    return path


# Tables reportlab neither reads nor embeds (it sets glyphs by the cmap and hmtx and copies only
# name, OS/2, cvt, fpgm, prep, post, hhea, maxp, head, glyf and loca into a PDF). Instancing the
# layout tables was about nine tenths of the time, and hmtx is made from gvar's phantom points
# without HVAR: every table reportlab uses comes out the same as from instancing the whole font.
UNUSED = ("GSUB", "GPOS", "GDEF", "HVAR")


def instance(variable: Path, axes: dict[str, float]):
    """The static instance at `axes` of a variable font, as a fontTools TTFont, the same bytes on
    every run: head keeps the package font's date rather than the time it was made (reportlab
    copies head into every PDF)."""
    from fontTools.ttLib import TTFont as FontFile  # only needed the first time
    from fontTools.varLib import instancer

    font = FontFile(variable, recalcTimestamp=False)
    for tag in UNUSED:
        if tag in font:
            del font[tag]
    return instancer.instantiateVariableFont(font, axes)


def rename(font, name: str) -> None:
    """Give an instance its own names: each keeps the variable font's (NotoSans-Regular for all four
    body styles), and reportlab, which knows a face by its PostScript name, would then set every
    style with the first one's glyphs and widths."""
    for name_id in (1, 3, 4, 6):  # family, unique id, full name, PostScript name
        font["name"].setName(name, name_id, 3, 1, 0x409)
        font["name"].setName(name, name_id, 1, 0, 0)
    font["name"].setName("Regular", 2, 3, 1, 0x409)


@cache
def font_name(style: str) -> str:
    """The style's registered name, registering it on first use: a build prepares and parses only
    the faces it sets text in."""
    name = STYLES[style][0]
    pdfmetrics.registerFont(TTFont(name, str(static_instance(style))))
    return name


@cache
def ascent(style: str) -> float:
    """The font's ascender (hhea, as reportlab reads it), as a fraction of the font size."""
    return pdfmetrics.getFont(font_name(style)).face.ascent / 1000


@cache
def descent(style: str) -> float:
    """The font's descender below the baseline, as a positive fraction of the font size."""
    return -pdfmetrics.getFont(font_name(style)).face.descent / 1000


@cache
def _charset(style: str) -> frozenset[int]:
    """The code points the style's font has glyphs for."""
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
    return Canvas(target, invariant=1, pageCompression=1, initialFontName=font_name("regular"), **kwargs)
