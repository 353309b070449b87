"""Icon regions: one of our vector icons, centred in its box."""

from __future__ import annotations

from typing import Literal

from pnp.content.markup import ICON_NAMES, unknown_icon
from pnp.regions.base import Placed
from pnp.render.icons import stamp_icon


class IconRegion(Placed):
    type: Literal["icon"]
    colour: str | None = None  # None: the icon's own colours


def check(region: IconRegion, name: str) -> str | None:
    return None if name in ICON_NAMES else f"expected {unknown_icon(name)}, got {name!r}"


def fixed(region: IconRegion) -> bool:
    return False  # drawn from the content's value


def draw(canvas, region: IconRegion, name: str | None, x, y, w, h, ink) -> None:
    if name is None:
        return
    size = min(w, h)
    colour = ink.colour(region.colour) if region.colour else None
    stamp_icon(canvas, name, x + (w - size) / 2, y + (h - size) / 2, size, colour)


MODEL = IconRegion
