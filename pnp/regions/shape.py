"""Shape regions: decoration (panels, badges, rules) drawn whatever the content says."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pnp.content.validate import FontSize, Length
from pnp.regions.base import Placed
from pnp.render.colours import HEX


class ShapeRegion(Placed):
    type: Literal["shape"]
    shape: Literal["rect", "rounded", "ellipse", "hexagon"] = "rect"
    radius: Length = Field(0.0, ge=0, le=1000)
    fill: str | None = None
    stroke: str | None = None
    stroke_width: FontSize = Field(0.0, ge=0, le=50)
    optional: bool = False  # drawn only when the content names this region (a badge on some cards)
    fill_from_content: bool = False  # the content gives the fill as #rrggbb (a potion's colour)


def check(region: ShapeRegion, text: str) -> str | None:
    if region.fill_from_content and not HEX.match(text or ""):
        return f"expected a colour as #rrggbb, got {text!r}"
    return None  # a shape takes no words: naming it only switches an optional one on


def fixed(region: ShapeRegion) -> bool:
    return not (region.optional or region.fill_from_content)


def draw(canvas, region: ShapeRegion, text: str | None, x, y, w, h, ink) -> None:
    if (region.optional or region.fill_from_content) and text is None:
        return
    if region.fill_from_content:
        region = region.model_copy(update={"fill": text})
    fill = region.fill is not None and not ink.saver
    stroke_name = region.stroke or (region.fill if ink.saver else None)  # ink saver: outline instead of fill
    if not fill and stroke_name is None:
        return
    if fill:
        canvas.setFillColor(ink.colour(region.fill))
    if stroke_name is not None:
        canvas.setStrokeColor(ink.colour(stroke_name))
        canvas.setLineWidth(region.stroke_width or 0.5)
    args = dict(stroke=int(stroke_name is not None), fill=int(fill))
    if region.shape == "ellipse":
        canvas.ellipse(x, y, x + w, y + h, **args)
    elif region.shape == "hexagon":
        canvas.drawPath(_hexagon(canvas, x, y, w, h), **args)
    elif region.shape == "rounded":
        canvas.roundRect(x, y, w, h, region.radius, **args)
    else:
        canvas.rect(x, y, w, h, **args)


def _hexagon(canvas, x, y, w, h):
    """Pointed left and right, flat top and bottom: a seal that no round badge is mistaken for."""
    point = min(h / 2, w / 4)
    path = canvas.beginPath()
    path.moveTo(x, y + h / 2)
    for px, py in ((x + point, y), (x + w - point, y), (x + w, y + h / 2), (x + w - point, y + h), (x + point, y + h)):
        path.lineTo(px, py)
    path.close()
    return path


MODEL = ShapeRegion
