"""A card, tile or token face drawn from its template's regions and the values content gives them.

The face is drawn with its trim's bottom-left at the origin; background fills run into the bleed.
Each region kind checks and draws itself (pnp.regions); this module only routes values to them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import partial

from pnp.components.templates import CardTemplate
from pnp.content.problems import Mark, Problem
from pnp.regions import every_kind
from pnp.render.colours import Ink, resolve


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


def check_face(face: Face, template: CardTemplate, where: Mark) -> list[Problem]:
    """Every value's region exists and accepts it: text fits with glyphs the font has, icons are
    known, tracks are well written. `where` stands in for values written by code, not content."""
    problems = []
    for value in face.values:
        region = template.regions.get(value.region)
        mark, field = value.mark or where, value.field or value.region
        if region is None:
            message = f"the template {face.template} has no region {value.region!r}"
        else:
            message = every_kind()[region.type].check(region, value.text)
        if message:
            problems.append(Problem(mark, field, f"{face.label}: {message}"))
    return problems


Reuse = Callable[[Hashable, Callable[[], None]], None]
BACKGROUND = None  # in a run of region names: the template's background fill


def runs(template: CardTemplate) -> list[tuple[bool, tuple[str | None, ...]]]:
    """The background and the regions in drawing order, grouped into runs that are fixed (drawn
    the same on every face of the template, whatever its content) or not."""
    out: list[tuple[bool, list[str | None]]] = [(True, [BACKGROUND])]
    for name, region in template.regions.items():
        fixed = every_kind()[region.type].fixed(region)
        if out[-1][0] != fixed:
            out.append((fixed, []))
        out[-1][1].append(name)
    return [(fixed, tuple(names)) for fixed, names in out]


def draw_face(canvas, face: Face, template: CardTemplate, bleed: float, saver: bool, reuse: Reuse | None = None):
    """Draw `face` with its trim's bottom-left at the origin. With `reuse`, each run of fixed
    regions is handed to it (with a key naming the template and the run) to be drawn once and
    placed again on every face that shares it, as a PDF form: a deck's frames and panels are
    then in the file once, not once per card."""
    ink = Ink(template.colours, saver)
    for index, (fixed, names) in enumerate(runs(template)):
        draw = partial(_draw_run, canvas, face, template, names, bleed, ink)
        if fixed and reuse is not None:
            reuse((face.template, index), draw)
        else:
            draw()


def _draw_run(canvas, face: Face, template: CardTemplate, names, bleed: float, ink: Ink) -> None:
    for name in names:
        if name is BACKGROUND:
            if not ink.saver:
                w, h = template.size.width, template.size.height
                canvas.setFillColor(resolve(template.background, template.colours))
                canvas.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
            continue
        region = template.regions[name]
        value = face.value(name)
        x, y, w, h = region_rect(template, region.box)
        canvas.saveState()
        if region.rotate == 180:  # turned about the box's centre
            canvas.translate(2 * x + w, 2 * y + h)
            canvas.rotate(180)
        every_kind()[region.type].draw(canvas, region, value.text if value else None, x, y, w, h, ink)
        canvas.restoreState()
