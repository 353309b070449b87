"""Gem regions: rows of gems (a cast cost, a board's HP slots, a gem token), each a disc in its
colour's ink with its symbol above its letter, so a greyscale print or a colour-blind player
still reads which it is. Rows are laid out left to right from the box's left edge, as a cost is
paid; every gem is as large as the box's height allows, up to `max_gem`.

The content gives the gems as text, a row a line, gems parted by " | ", each "ink LETTER icon":
    fire F fire | wild * wild
The ink is a colour name of the template. A gem whose ink is the region's `any` ink (a Wild
cost) is left white and its icon drawn in its own colours; one whose ink is `golden` (a mastered
spell's first gem) wears a second ring. `slots: true` draws pale places for gems to stand on.
"""

from __future__ import annotations

import re
import sys
from typing import Literal

from pydantic import Field
from reportlab.lib.colors import Color, white

from pnp.content.markup import ICON_NAMES
from pnp.content.validate import FontSize, Length
from pnp.regions.base import Placed
from pnp.render import fonts
from pnp.render.colours import legible_on
from pnp.render.icons import stamp_icon

MAX_GEMS = 24  # in a row: bounds the drawing
_GEM = re.compile(r"^([a-z][a-z0-9_-]*) (\S) ([a-z][a-z0-9_-]*)$")
SLOT_TINT = 0.28  # a slot's fill: this share of its colour's ink on paper


class GemsRegion(Placed):
    type: Literal["gems"]
    max_gem: Length = Field(gt=0, le=1000)  # a gem's diameter at most
    gap: float = Field(0.12, ge=0, le=1)  # between gems, a fraction of a gem
    stroke: str = "ink"  # each gem's outline
    stroke_width: FontSize = Field(0.8, gt=0, le=10)
    dark: str = "ink"  # the letter and symbol on a light gem
    light: str = "white"  # ... on a dark one
    any: str = "wild"  # the ink of a gem any colour pays
    golden: str = "golden"  # the ink of a mastered spell's golden gem
    slots: bool = False  # pale places for gems, not gems
    align: Literal["left", "center"] = "left"


def parse(text: str) -> list[list[tuple[str, str, str]]] | str:
    """Rows of (ink, letter, icon), or what is wrong with the text, as a message."""
    rows = []
    for line in text.strip().split("\n"):
        row = []
        for gem in (g.strip() for g in line.split("|")):
            match = _GEM.match(" ".join(gem.split()))
            if not match:
                return f"gems written 'ink LETTER icon' parted by '|', got {gem!r}"
            if match[3] not in ICON_NAMES:
                return f"an icon we have ({', '.join(ICON_NAMES)}), got {match[3]!r}"
            row.append(match.groups())
        rows.append(row)
    return rows


def check(region: GemsRegion, text: str) -> str | None:
    rows = parse(text)
    if isinstance(rows, str):
        return f"expected {rows}"
    if max(map(len, rows)) > MAX_GEMS:
        return f"expected at most {MAX_GEMS} gems in a row, got {max(map(len, rows))}"
    return None


def fixed(region: GemsRegion) -> bool:
    return False  # drawn from the content's value


def layout(rows: int, columns: int, w: float, h: float, region: GemsRegion) -> tuple[float, float]:
    """(a gem's diameter, the pitch from one gem's left edge to the next): as large as the box
    holds. Shared with the tests that find the gems on a rendered card."""
    pitch_share = 1 + region.gap
    gem = min(region.max_gem, h / (rows + (rows - 1) * region.gap), w / (columns * pitch_share - region.gap))
    return gem, gem * pitch_share


def draw(canvas, region: GemsRegion, text: str | None, x, y, w, h, ink) -> None:
    if text is None:
        return
    rows = parse(text)
    gem, pitch = layout(len(rows), max(map(len, rows)), w, h, region)
    top = y + h - (h - (len(rows) * pitch - (pitch - gem))) / 2
    for r, row in enumerate(rows):
        width = len(row) * pitch - (pitch - gem)
        left = x + ((w - width) / 2 if region.align == "center" else 0)
        for c, (name, letter, icon) in enumerate(row):
            _gem(canvas, region, ink, name, letter, icon, left + c * pitch, top - r * pitch - gem, gem)


def _gem(canvas, region: GemsRegion, ink, name: str, letter: str, icon: str, x, y, d) -> None:
    colour = ink.colour(name)
    dark, light = ink.colour(region.dark), ink.colour(region.light)
    cx, cy, r = x + d / 2, y + d / 2, d / 2
    canvas.setLineWidth(region.stroke_width)
    canvas.setStrokeColor(colour if region.slots else ink.colour(region.stroke))
    if region.slots:
        fill = _tint(colour, SLOT_TINT)
        canvas.setDash(2, 1.5)
    else:
        fill = white if name == region.any else colour
    canvas.setFillColor(fill)
    canvas.circle(cx, cy, r, stroke=1, fill=0 if ink.saver else 1)
    canvas.setDash()
    if name == region.golden:  # a ring inside the rim: golden reads in grey too
        canvas.setLineWidth(max(region.stroke_width, d * 0.05))
        canvas.setStrokeColor(dark)
        canvas.circle(cx, cy, r * 0.84, stroke=1, fill=0)
    mark = dark if ink.saver or region.slots else legible_on(fill, dark, light)
    letter_size = d * 0.34
    symbol = d * 0.42
    own = name == region.any and not ink.saver  # the Wild icon's own colours say "any"
    stamp_icon(canvas, icon, cx - symbol / 2, cy - d * 0.02, symbol, None if own else mark)
    canvas.setFillColor(mark)
    canvas.setFont(fonts.font_name("bold"), letter_size)
    canvas.drawCentredString(cx, y + d * 0.15, letter)


def _tint(colour: Color, share: float) -> Color:
    """The colour at `share` of its strength on white paper."""
    return Color(*(1 - share * (1 - v) for v in colour.rgb()))


MODEL = GemsRegion


KINDS = {"gems": sys.modules[__name__]}  # this game's own region kind (its GameDef's `regions`)
