"""Fold-up paper pyramids: a net for each piece of every colour's stash, laid out on pages.

A net is the four isosceles faces fanned round their shared apex, the square base on the base of
the second face, a glue tab on the last face's free edge (it goes inside the first face) and one
on each of the base's three free sides (each inside the face it meets). Fanned faces and a base
take much less paper than the usual cross. Cut lines are solid, fold lines dashed. Each face
carries its colour's letter and symbol and the size's pips, near its base, as the real pieces do.

Nets nest in pairs, one turned half round into the other's gaps, and are laid out in the area
that A4 and Letter both leave free, so the page count is the same on either paper and known
before the paper is chosen (the setup page lists it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from pnp.components.kinds import require_named
from pnp.components.makers import SetInputs
from pnp.document import page_style
from pnp.games.spellcycles.kinds import SIZES, SetRules
from pnp.games.spellcycles.palette import inks, marks_dark
from pnp.geometry import Rect
from pnp.imposition import PAPERS, sheet_area
from pnp.render import fonts, richtext
from pnp.render.colours import Ink
from pnp.render.icons import stamp_icon
from pnp.units import MM

TEMPLATE = "sc-nets"
DASH = (2.5, 1.5)  # the fold lines' dashes, in points
FOLD_WIDTH = 0.4  # points: thinner than the cut lines
BAND = 1 * MM  # the strips nets are compared in, nesting one against another
STEP = 10  # degrees between the turns tried for the nets on a page
Point = tuple[float, float]


@dataclass(frozen=True)
class Net:
    """One pyramid's net in its own frame (points; the apex at the origin, the fan opening downwards)."""

    base: float
    slant: float  # each face's height, from the middle of its base to the apex
    tab: float

    @cached_property
    def half_angle(self) -> float:
        """Half a face's angle at the apex."""
        return math.atan2(self.base / 2, self.slant)

    @cached_property
    def corners(self) -> list[Point]:
        """The five base corners of the fanned faces (face i runs from corner i to i + 1), each an
        edge's length from the apex."""
        edge = math.hypot(self.slant, self.base / 2)
        angles = [(k - 2) * 2 * self.half_angle for k in range(5)]
        return [(edge * math.sin(a), -edge * math.cos(a)) for a in angles]

    def face_angle(self, face: int) -> float:
        """The turn (radians, anticlockwise) that sets face `face` upright: its axis straight down."""
        return (2 * face - 3) * self.half_angle

    @cached_property
    def square(self) -> list[Point]:
        """The base, on the second face's base, away from the apex."""
        (x1, y1), (x2, y2) = self.corners[1], self.corners[2]
        angle = self.face_angle(1)
        nx, ny = math.sin(angle) * self.base, -math.cos(angle) * self.base  # along the face's axis
        return [(x1, y1), (x2, y2), (x2 + nx, y2 + ny), (x1 + nx, y1 + ny)]

    @cached_property
    def tabs(self) -> list[list[Point]]:
        """The glue tabs: on the last face's free edge, and on the base's three free sides."""
        apex = (0.0, 0.0)
        last = self.corners[4]
        sq = self.square
        edges = [(last, apex, centroid([apex, self.corners[3], last]))]
        edges += [(sq[i], sq[(i + 1) % 4], centroid(sq)) for i in (1, 2, 3)]
        return [tab(u, v, inside, self.tab) for u, v, inside in edges]

    @cached_property
    def folds(self) -> list[tuple[Point, Point]]:
        """Between the faces, between the second face and the base, and where each tab meets its edge."""
        apex, c, sq = (0.0, 0.0), self.corners, self.square
        return [(apex, c[k]) for k in (1, 2, 3, 4)] + [(sq[i], sq[(i + 1) % 4]) for i in range(4)]

    @cached_property
    def cuts(self) -> list[tuple[Point, Point]]:
        """The outline: the first face's free edge, the faces' free bases and each tab's outer sides."""
        apex, c = (0.0, 0.0), self.corners
        lines = [(apex, c[0]), (c[0], c[1]), (c[2], c[3]), (c[3], c[4])]
        for polygon in self.tabs:
            lines += [(polygon[i], polygon[(i + 1) % 4]) for i in (1, 2, 3)]
        return lines

    def pieces(self) -> list[list[Point]]:
        """The net as convex polygons: the four faces, the base and the tabs."""
        return [[(0.0, 0.0), self.corners[k], self.corners[k + 1]] for k in range(4)] + [self.square, *self.tabs]

    def points(self) -> list[Point]:
        return [(0.0, 0.0), *self.corners, *self.square, *(p for t in self.tabs for p in t)]


def centroid(points: list[Point]) -> Point:
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


def tab(u: Point, v: Point, inside: Point, width: float) -> list[Point]:
    """A trapezoid on the edge u-v, away from `inside`, its ends slanted in: u, v, then its outer side."""
    length = math.dist(u, v)
    dx, dy = (v[0] - u[0]) / length, (v[1] - u[1]) / length
    nx, ny = -dy, dx
    mid = ((u[0] + v[0]) / 2, (u[1] + v[1]) / 2)
    if (inside[0] - mid[0]) * nx + (inside[1] - mid[1]) * ny > 0:
        nx, ny = -nx, -ny
    inset = min(width * 0.8, length * 0.25)
    return [
        u,
        v,
        (v[0] + nx * width - dx * inset, v[1] + ny * width - dy * inset),
        (u[0] + nx * width + dx * inset, u[1] + ny * width + dy * inset),
    ]


def turned(points: list[Point], angle: float) -> list[Point]:
    c, s = math.cos(angle), math.sin(angle)
    return [(x * c - y * s, x * s + y * c) for x, y in points]


def bounds(net: Net, angle: float) -> tuple[float, float, float, float]:
    """The net turned by `angle`: its bounding box's left, bottom, width and height."""
    pts = turned(net.points(), angle)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


@dataclass(frozen=True)
class Unit:
    """Nets laid out together, repeated on a grid: each one's origin and turn, and the box round
    them all (left, bottom, width, height), in the unit's frame."""

    members: tuple[tuple[Point, float], ...]
    box: tuple[float, float, float, float]

    def grid(self, room: Rect, gap: float) -> tuple[int, int]:
        """Columns and rows of units that fit in `room`, `gap` apart."""
        _, _, w, h = self.box
        return int((room.w + gap) // (w + gap)), int((room.h + gap) // (h + gap))

    def per_page(self, room: Rect, gap: float) -> int:
        cols, rows = self.grid(room, gap)
        return cols * rows * len(self.members)


def single(net: Net, angle: float) -> Unit:
    return Unit((((0.0, 0.0), angle),), bounds(net, angle))


def extents(net: Net, angle: float) -> tuple[float, list[tuple[float, float] | None]]:
    """The net turned by `angle`, cut in horizontal bands BAND high from its lowest point: that
    point's y, and each band's leftmost and rightmost x (None: nothing of the net in it)."""
    edges = [(a, b) for polygon in net.pieces() for a, b in zip(polygon, polygon[1:] + polygon[:1], strict=True)]
    edges = [tuple(turned(list(edge), angle)) for edge in edges]
    bottom = min(min(a[1], b[1]) for a, b in edges)
    top = max(max(a[1], b[1]) for a, b in edges)
    bands: list[tuple[float, float] | None] = [None] * max(1, math.ceil((top - bottom) / BAND))
    for (x0, y0), (x1, y1) in edges:
        if y0 > y1:
            x0, y0, x1, y1 = x1, y1, x0, y0
        first, last = int((y0 - bottom) // BAND), min(len(bands) - 1, int((y1 - bottom) // BAND))
        for band in range(first, last + 1):
            lo, hi = bottom + band * BAND, bottom + (band + 1) * BAND
            xs = [x_at(x0, y0, x1, y1, max(y0, lo)), x_at(x0, y0, x1, y1, min(y1, hi))]
            seen = bands[band]
            bands[band] = (min(xs), max(xs)) if seen is None else (min(seen[0], *xs), max(seen[1], *xs))
    return bottom, bands


def x_at(x0: float, y0: float, x1: float, y1: float, y: float) -> float:
    return x0 if y1 == y0 else x0 + (x1 - x0) * (y - y0) / (y1 - y0)


def pairs(net: Net, angle: float, gap: float) -> list[Unit]:
    """The net turned by `angle` and beside it, on its right, the net turned half round, nested as
    close as `gap` allows at each height it may be set at: the fans' points fit in each other."""
    a_bottom, a = extents(net, angle)
    b_bottom, b = extents(net, angle + math.pi)
    reach = math.ceil(gap / BAND)  # bands within the gap of each other keep it across too
    right = [
        max((band[1] for band in a[max(0, i - reach) : i + reach + 1] if band is not None), default=None)
        for i in range(len(a))
    ]
    ax, ay, aw, ah = bounds(net, angle)
    bx, by, bw, bh = bounds(net, angle + math.pi)
    units = []
    for shift in range(-len(b) + 1, len(a)):  # b's lowest band beside a's band `shift`
        needs = [
            right[i + shift] - band[0]
            for i, band in enumerate(b)
            if band is not None and 0 <= i + shift < len(a) and right[i + shift] is not None
        ]
        if not needs:
            continue
        at = (max(needs) + gap, a_bottom + shift * BAND - b_bottom)
        left, bottom = min(ax, at[0] + bx), min(ay, at[1] + by)
        box = (left, bottom, max(ax + aw, at[0] + bx + bw) - left, max(ay + ah, at[1] + by + bh) - bottom)
        units.append(Unit((((0.0, 0.0), angle), (at, angle + math.pi)), box))
    return units


def best_unit(net: Net, room: Rect, gap: float) -> Unit:
    """The unit that puts the most nets on a page: one net alone, or a nested pair, at every
    turn in steps of STEP degrees; of as many, the smallest."""
    units = []
    for degrees in range(0, 360, STEP):
        angle = math.radians(degrees)
        units += [single(net, angle), *pairs(net, angle, gap)]
    return max(units, key=lambda u: (u.per_page(room, gap), -u.box[2] * u.box[3] / len(u.members)))


@dataclass(frozen=True)
class Placed:
    """A net on a page: its colour and size, where its frame's origin lands (in the area's frame,
    from its bottom-left) and its turn."""

    colour: int  # index into the set's colours
    size: str
    at: Point
    angle: float


class NetPages:
    """Every net of the set, page by page: the full stash of each colour, a size's nets together,
    smallest first, on a grid of as many as the common area holds (alone or in nested pairs)."""

    def __init__(self, inputs: SetInputs):
        self.inputs = inputs
        self.template = inputs.templates[TEMPLATE]
        lengths = tuple(f"{size}_{what}" for size in SIZES for what in ("base", "slant")) + ("tab", "gap", "heading")
        require_named(self.template, "pyramid nets", lengths, ("symbol", "pip"))
        self.rules: SetRules = inputs.content["spellcycles-set"]
        self.layout = self._lay_out()

    @property
    def pages(self) -> int:
        return len(self.layout)

    def net(self, size: str) -> Net:
        lengths = self.template.lengths
        return Net(lengths[f"{size}_base"], lengths[f"{size}_slant"], lengths["tab"])

    def room(self) -> Rect:
        """The area every paper leaves free, below the heading band, in a frame from its bottom-left."""
        style = page_style(self.inputs.templates["page"])
        areas = [sheet_area(paper.width, paper.height, style) for paper in PAPERS.values()]
        return Rect(0, 0, min(a.w for a in areas), min(a.h for a in areas) - self.template.lengths["heading"])

    def _lay_out(self) -> list[list[Placed]]:
        """Row after row of units down each page, a size's rows following the last size's on
        the same page while there is room."""
        room, gap = self.room(), self.template.lengths["gap"]
        pages: list[list[Placed]] = [[]]
        top = room.h  # where the next row may start, down from the room's top
        for size in SIZES:
            unit = best_unit(self.net(size), room, gap)
            cols, _ = unit.grid(room, gap)
            x0, y0, w, h = unit.box
            left = (room.w - (cols * w + (cols - 1) * gap)) / 2  # each row centred across the room
            row = [
                ((left + c * (w + gap) - x0 + dx, dy - y0), angle)
                for c in range(cols)
                for (dx, dy), angle in unit.members
            ]
            wanted = [
                colour for colour in range(len(self.rules.colours)) for _ in range(getattr(self.rules.stash, size))
            ]
            for start in range(0, len(wanted), len(row)):
                if top - h < 0:
                    pages.append([])
                    top = room.h
                chunk = zip(wanted[start : start + len(row)], row, strict=False)
                pages[-1] += [Placed(colour, size, (x, top - h + y), angle) for colour, ((x, y), angle) in chunk]
                top -= h + gap
        return pages

    def draw(self, canvas, area: Rect, template, page: int, printing) -> None:
        """One page of nets: the note above, the nets in the common room, centred in this paper's area."""
        room = self.room()
        heading = template.lengths["heading"]
        x = area.x + (area.w - room.w) / 2
        y = area.y + (area.h - room.h - heading) / 2
        content = self.inputs.content
        words = content["words"]
        sizes = dict.fromkeys(p.size for p in self.layout[page])
        title = f"{words.components.nets} · {', '.join(words.sizes[s] for s in sizes)}"
        ink = Ink(template.colours, printing.options.ink_saver)
        canvas.saveState()
        canvas.setFillColor(ink.colour("ink"))
        canvas.setFont(fonts.font_name("bold"), template.heading_size)
        top = y + room.h + heading
        canvas.drawString(x, top - template.heading_size, title)
        fitted = richtext.fit(content["words"].nets_note, "regular", room.w, heading * 0.55, template.body_size, 5, 1.1)
        if fitted is not None:
            richtext.draw(canvas, fitted, x, y + room.h, room.w, heading * 0.55, "left", "bottom", ink.colour("ink"))
        canvas.restoreState()
        for placed in self.layout[page]:
            canvas.saveState()
            canvas.translate(x + placed.at[0], y + placed.at[1])
            canvas.rotate(math.degrees(placed.angle))
            self.draw_net(canvas, placed, template, ink)
            canvas.restoreState()

    def draw_net(self, canvas, placed: Placed, template, ink: Ink) -> None:
        net = self.net(placed.size)
        colour = self.rules.colours[placed.colour]
        fill = inks(self.inputs)[colour.id]
        dark = marks_dark(fill, template.colours["mark"], template.colours["ink"])
        mark = ink.colour("ink" if dark or ink.saver else "mark")
        if not ink.saver:
            canvas.setFillColor(ink.colour(fill))
            pieces = net.pieces()
            for polygon in pieces[:5]:  # the faces and the base
                canvas.drawPath(path(canvas, polygon), stroke=0, fill=1)
            canvas.setFillColor(ink.colour("tab"))
            for polygon in pieces[5:]:
                canvas.drawPath(path(canvas, polygon), stroke=0, fill=1)
        pips = SIZES.index(placed.size) + 1
        for face in range(4):
            canvas.saveState()
            canvas.rotate(math.degrees(net.face_angle(face)))
            draw_face_marks(canvas, net, pips, colour, mark, template)
            canvas.restoreState()
        canvas.setStrokeColor(mark)  # a fold across a dark face shows light
        canvas.setLineWidth(FOLD_WIDTH)
        canvas.setDash(*DASH)
        for u, v in net.folds:
            canvas.line(*u, *v)
        canvas.setDash()
        canvas.setStrokeColor(ink.colour("ink"))
        canvas.setLineWidth(template.line_width)
        canvas.setLineCap(1)  # round: the cut outline's corners meet
        for u, v in net.cuts:
            canvas.line(*u, *v)


def draw_face_marks(canvas, net: Net, pips: int, colour, mark, template) -> None:
    """On an upright face (apex at the origin, base below): the pips along the base, the symbol
    above them, the letter above it."""
    ratios = template.ratios
    pip = net.base * ratios["pip"]
    symbol = net.base * ratios["symbol"]
    base = -net.slant
    canvas.setFillColor(mark)
    pip_y = base + 1.6 * pip
    for k in range(pips):
        canvas.circle((k - (pips - 1) / 2) * 1.8 * pip, pip_y, pip / 2, stroke=0, fill=1)
    symbol_y = pip_y + pip + symbol * 0.15
    stamp_icon(canvas, colour.symbol, -symbol / 2, symbol_y, symbol, mark)
    letter = symbol * 0.55
    canvas.setFont(fonts.font_name("bold"), letter)
    canvas.drawCentredString(0, symbol_y + symbol * 1.12, colour.letter)


def path(canvas, points: list[Point]):
    p = canvas.beginPath()
    p.moveTo(*points[0])
    for point in points[1:]:
        p.lineTo(*point)
    p.close()
    return p
