"""Text regions: rich text fitted to its box, shrinking down to the region's minimum size."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pnp.content.markup import FONTS, MarkupError
from pnp.content.validate import FontSize
from pnp.regions.base import Placed
from pnp.render import fonts, richtext
from pnp.units import mm


class TextRegion(Placed):
    type: Literal["text"]
    font: Literal[FONTS] = "regular"  # type: ignore[valid-type]
    size: FontSize = Field(gt=0, le=200)
    min_size: FontSize | None = Field(None, gt=0, le=200)  # shrink-to-fit stops here; default: no shrinking
    leading: float = Field(1.2, ge=0.8, le=3)
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    colour: str = "ink"


def fit(region: TextRegion, text: str):
    w, h = region.box[2], region.box[3]
    min_size = region.min_size if region.min_size is not None else region.size
    return richtext.fit(text, region.font, w, h, region.size, min(min_size, region.size), region.leading)


def check(region: TextRegion, text: str) -> str | None:
    try:
        fitted = fit(region, text)
    except MarkupError as err:
        return f"expected {err}, got {text!r}"
    lacking = fonts.missing_characters(text, region.font)
    if lacking:
        codes = ", ".join(f"U+{ord(c):04X}" for c in lacking)
        named = ", ".join(repr(c) for c in lacking)
        return f"expected characters the embedded font has, got {named} ({codes}) that it cannot draw"
    if fitted is None:
        w, h = region.box[2], region.box[3]
        return (
            f"text does not fit its {mm(w):.1f} x {mm(h):.1f} mm box "
            f"(expected text that fits at {region.min_size or region.size:g} pt or larger, got {len(text)} characters)"
        )
    return None


def fixed(region: TextRegion) -> bool:
    return False  # drawn from the content's value


def draw(canvas, region: TextRegion, text: str | None, x, y, w, h, ink) -> None:
    if text is not None:
        richtext.draw(canvas, fit(region, text), x, y, w, h, region.align, region.valign, ink.colour(region.colour))


MODEL = TextRegion
