"""A card, tile or token face drawn from its template's regions and the values content gives them.

The face is drawn with its trim's bottom-left at the origin; background fills run into the bleed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportlab.lib.colors import Color

from pnp.content.problems import Mark, Problem, expected_got
from pnp.render import fonts, richtext
from pnp.render.colours import resolve
from pnp.render.icons import stamp_icon
from pnp.render.templates import (
    CardTemplate,
    IconRegion,
    ShapeRegion,
    TextRegion,
    TrackRegion,
)
from pnp.units import mm


@dataclass(frozen=True)
class Value:
    """What content puts in one region, and where it was written (for fit errors)."""

    region: str
    text: str
    mark: Mark | None = None
    field: str = ""  # the content field it came from, for messages; default: the region


@dataclass(frozen=True)
class Face:
    template: str
    values: tuple[Value, ...]
    label: str = ""  # names the card in messages

    def value(self, region: str) -> Value | None:
        return next((v for v in self.values if v.region == region), None)


def region_rect(template: CardTemplate, box) -> tuple[float, float, float, float]:
    """A template box (from the trim's top-left) as x, y, w, h from the bottom-left."""
    x, y, w, h = box
    return x, template.size.height - y - h, w, h


def fit_text(template: CardTemplate, region: TextRegion, text: str):
    w, h = region.box[2], region.box[3]
    min_size = region.min_size if region.min_size is not None else region.size
    return richtext.fit(text, region.font, w, h, region.size, min(min_size, region.size), region.leading)


def check_face(face: Face, template: CardTemplate) -> list[Problem]:
    """Text that cannot fit its region even at the minimum size, unknown icons, unknown regions."""
    problems = []
    for value in face.values:
        region = template.regions.get(value.region)
        mark, field = value.mark or Mark(face.template, 1, 1), value.field or value.region
        if region is None:
            problems.append(
                Problem(mark, field, f"{face.label}: the template {face.template} has no region {value.region!r}")
            )
            continue
        if isinstance(region, TrackRegion):
            if parse_track(value.text) is None:
                problems.append(
                    Problem(
                        mark, field, f"{face.label}: " + expected_got("a track written FROM-TO start N", value.text)
                    )
                )
            continue
        if not isinstance(region, TextRegion):
            continue
        try:
            fitted = fit_text(template, region, value.text)
        except richtext.TextError as err:
            problems.append(Problem(mark, field, f"{face.label}: {err}"))
            continue
        if fitted is None:
            w, h = region.box[2], region.box[3]
            problems.append(
                Problem(
                    mark,
                    field,
                    (
                        f"{face.label}: text does not fit its {mm(w):.1f} x {mm(h):.1f} mm box "
                        f"(expected text that fits at {region.min_size or region.size:g} pt or larger, "
                        f"got {len(value.text)} characters)"
                    ),
                )
            )
    return problems


class Ink:
    """Colour choices for a face; in ink-saver mode fills vanish and light colours turn to ink."""

    def __init__(self, template: CardTemplate, saver: bool):
        self.palette, self.saver = template.colours, saver
        self.ink = resolve(template.colours.get("ink", "#000000"), {})

    def colour(self, name: str) -> Color:
        colour = resolve(name, self.palette)
        if self.saver and _luminance(colour) > 0.6:
            return self.ink
        return colour


def _luminance(c: Color) -> float:
    return 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue


def draw_face(canvas, face: Face, template: CardTemplate, bleed: float, saver: bool) -> None:
    ink = Ink(template, saver)
    w, h = template.size.width, template.size.height
    if not saver:
        canvas.setFillColor(resolve(template.background, template.colours))
        canvas.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    for name, region in template.regions.items():
        value = face.value(name)
        if isinstance(region, ShapeRegion):
            if not region.optional or value is not None:
                _shape(canvas, template, region, ink)
        elif value is not None:
            draw = {TextRegion: _text, IconRegion: _icon, TrackRegion: _track}[type(region)]
            _rotated(canvas, template, region, value.text, draw, ink)


def _rotated(canvas, template, region, text: str, draw, ink: Ink) -> None:
    """Draw the region's value in its box, turned about the box's centre if the region says so."""
    x, y, w, h = region_rect(template, region.box)
    canvas.saveState()
    if region.rotate == 180:
        canvas.translate(2 * x + w, 2 * y + h)
        canvas.rotate(180)
    draw(canvas, template, region, text, x, y, w, h, ink)
    canvas.restoreState()


def _text(canvas, template, region: TextRegion, text, x, y, w, h, ink: Ink) -> None:
    fitted = fit_text(template, region, text)
    richtext.draw(canvas, fitted, x, y, w, h, region.align, region.valign, ink.colour(region.colour))


def _icon(canvas, template, region: IconRegion, name, x, y, w, h, ink: Ink) -> None:
    size = min(w, h)
    stamp_icon(
        canvas, name, x + (w - size) / 2, y + (h - size) / 2, size, ink.colour(region.colour) if region.colour else None
    )


def parse_track(text: str) -> tuple[int, int, int] | None:
    """ "0-15 start 5" -> (0, 15, 5); None when it is not written that way or start is off the track."""
    match = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s+start\s+(\d+)\s*", text)
    if not match:
        return None
    low, high, start = map(int, match.groups())
    return (low, high, start) if low <= start <= high else None


def _track(canvas, template, region: TrackRegion, text, x, y, w, h, ink: Ink) -> None:
    """Numbered spaces left to right, top to bottom; the start space highlighted and starred."""
    low, high, start = parse_track(text)
    count, cols, gap = high - low + 1, region.columns, region.gap
    rows = -(-count // cols)
    cell_w, cell_h = (w - (cols - 1) * gap) / cols, (h - (rows - 1) * gap) / rows
    canvas.saveState()
    canvas.setLineWidth(0.8)
    canvas.setStrokeColor(ink.colour(region.stroke))
    for i, number in enumerate(range(low, high + 1)):
        r, c = divmod(i, cols)
        cx, cy = x + c * (cell_w + gap), y + h - (r + 1) * cell_h - r * gap
        fill = region.highlight if number == start else region.fill
        if fill and not ink.saver:
            canvas.setFillColor(ink.colour(fill))
        canvas.roundRect(
            cx, cy, cell_w, cell_h, min(cell_w, cell_h) * 0.18, stroke=1, fill=int(bool(fill) and not ink.saver)
        )
        canvas.setFillColor(ink.colour(region.colour))
        canvas.setFont(fonts.font_name("bold"), region.size)
        canvas.drawCentredString(cx + cell_w / 2, cy + cell_h / 2 - region.size * 0.35, str(number))
        if number == start:
            star = region.size * 0.55
            stamp_icon(canvas, "star", cx + cell_w - star - 1, cy + cell_h - star - 1, star)
    canvas.restoreState()


def _shape(canvas, template, region: ShapeRegion, ink: Ink) -> None:
    x, y, w, h = region_rect(template, region.box)
    fill = region.fill is not None and not ink.saver
    stroke_name = region.stroke or (region.fill if ink.saver else None)
    if not fill and stroke_name is None:
        return
    canvas.saveState()
    if fill:
        canvas.setFillColor(ink.colour(region.fill))
    if stroke_name is not None:
        canvas.setStrokeColor(ink.colour(stroke_name))
        canvas.setLineWidth(region.stroke_width or 0.5)
    args = dict(stroke=int(stroke_name is not None), fill=int(fill))
    if region.shape == "ellipse":
        canvas.ellipse(x, y, x + w, y + h, **args)
    elif region.shape == "rounded":
        canvas.roundRect(x, y, w, h, region.radius, **args)
    else:
        canvas.rect(x, y, w, h, **args)
    canvas.restoreState()
