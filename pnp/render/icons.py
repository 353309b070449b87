"""Vector icons for card text and card art: our own designs, drawn as reportlab paths.

Every icon is described in a unit square (0..1, y up) by small path strings
(an SVG-like mini language, see pnp.outlines, which holds the gems' symbols too) and painted with a `_Pen`, which knows
the icon's colours.  `draw_icon` scales the unit square to the requested size.
Geometry stays inside 0.04..0.96 so that the outline (half of it outside the
shape) never leaves the icon's square.
"""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor, toColor

from pnp.outlines import ARGS as _ARGS
from pnp.outlines import GEM_SYMBOLS
from pnp.outlines import fmt as _fmt
from pnp.outlines import parse as _parse
from pnp.outlines import star as _star

_OUTLINE = 0.06  # outline width, as a fraction of the icon size
_DETAIL = 0.04  # interior detail lines (facets, ruled lines): lighter than the outline
_MIN_PT = 0.3  # no line thinner than this, however small the icon
_BEARING = 0.12  # inline side bearing, shared left and right by the text setter
_SHADE = 0.55  # outline = fill colour times this


def _trace(p, spec: str) -> None:
    joined = False  # whether an arc continues the current subpath or starts a new one
    for cmd, a in _parse(spec):
        if cmd == "M":
            p.moveTo(*a)
        elif cmd == "L":
            p.lineTo(*a)
        elif cmd == "C":
            p.curveTo(*a)
        elif cmd == "Z":
            p.close()
        elif cmd == "A":
            x, y, r, start, extent = a
            (p.arcTo if joined else p.arc)(x - r, y - r, x + r, y + r, start, extent)
        elif cmd == "O":
            p.circle(*a)
        elif cmd == "E":
            x, y, rx, ry = a
            p.ellipse(x - rx, y - ry, 2 * rx, 2 * ry)
        else:
            p.roundRect(*a)
        joined = cmd in "MLCA"


def _scaled(spec: str, k: float, ox: float = 0.5, oy: float = 0.5) -> str:
    """The same path shrunk by k about (ox, oy): inner borders that follow an outline."""

    def move(kind: str, v: float) -> float:
        return ox + k * (v - ox) if kind == "x" else oy + k * (v - oy) if kind == "y" else k * v if kind == "r" else v

    return " ".join(f"{cmd} {_fmt(*map(move, _ARGS[cmd], a))}" for cmd, a in _parse(spec))


def _sparkle(cx: float, cy: float, r: float, pinch: float = 0.14) -> str:
    """Four-pointed star with concave sides (both control points near the centre)."""
    q = r * pinch
    tips = [(cx, cy + r), (cx + r, cy), (cx, cy - r), (cx - r, cy)]
    ctrl = [(cx + q, cy + q), (cx + q, cy - q), (cx - q, cy - q), (cx - q, cy + q)]
    return (
        f"M {_fmt(*tips[0])} " + " ".join(f"C {_fmt(*ctrl[i], *ctrl[i], *tips[(i + 1) % 4])}" for i in range(4)) + " Z"
    )


def _darker(c: Color, k: float = _SHADE) -> Color:
    r, g, b = c.rgb()
    return Color(r * k, g * k, b * k, alpha=getattr(c, "alpha", 1))


def _lighter(c: Color, k: float = _SHADE) -> Color:
    return Color(*(v + (1 - v) * k for v in c.rgb()), alpha=getattr(c, "alpha", 1))


def _luminance(c: Color) -> float:
    r, g, b = c.rgb()
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _colour(c) -> Color:
    return HexColor(c) if isinstance(c, str) else toColor(c)


class _Pen:
    """Paints unit-square paths in one icon's colours.

    Default rendering: `tone`s and `accents` give extra colours.  Single-colour
    rendering (the caller chose a colour): everything is the fill colour with a
    darker outline, accents are left out, and marks and detail lines use the
    outline colour, or a light tint when the colour is too dark for a darker
    shade to show (a "!" must stay visible on a near-black disc).
    """

    def __init__(self, canvas, size: float, ink: Color, edge: Color, single: bool):
        self.c, self.size, self.ink, self.edge, self.single = canvas, size, ink, edge, single
        self.detail = edge if not single or _luminance(ink) >= 0.3 else _lighter(ink)

    def _draw(self, spec: str, fill: Color | None = None, stroke: Color | None = None, width: float = _OUTLINE):
        p = self.c.beginPath()
        _trace(p, spec)
        if fill is not None:
            self.c.setFillColor(fill)
        if stroke is not None:
            self.c.setStrokeColor(stroke)
            self.c.setLineWidth(max(width, _MIN_PT / self.size))
        self.c.drawPath(p, fill=int(fill is not None), stroke=int(stroke is not None))

    def _pair(self, tone) -> tuple[Color, Color]:
        if self.single or tone is None:
            return self.ink, self.edge
        return _colour(tone), _darker(_colour(tone))

    def shape(self, spec: str, tone=None, accents: tuple = ()) -> None:
        """Flat fill with outline; accents (spec, colour) go between fill and outline."""
        fill, edge = self._pair(tone)
        if self.single or not accents:
            self._draw(spec, fill, edge)
            return
        self._draw(spec, fill=fill)
        for accent, colour in accents:
            self._draw(accent, fill=_colour(colour))
        self._draw(spec, stroke=edge)

    def mark(self, spec: str, tone=None) -> None:
        """Filled detail without outline (pips, symbols): outline colour unless toned."""
        self._draw(spec, fill=self.detail if self.single or tone is None else _colour(tone))

    def line(self, spec: str, width: float = _DETAIL, tone=None) -> None:
        self._draw(spec, stroke=self.detail if self.single or tone is None else _colour(tone), width=width)

    def tube(self, spec: str, width: float, tone=None) -> None:
        """A stroke drawn as an outlined band: the outline is a wider stroke underneath."""
        fill, edge = self._pair(tone)
        self._draw(spec, stroke=edge, width=width + 2 * _OUTLINE)
        self._draw(spec, stroke=fill, width=width)


# Shared outlines.
# The neck (x .41..59) meets the r .30 bulb at 180 - acos(.09 / .30) = 107.47 degrees.
_FLASK = "M .41 .80 A .5 .36 .30 107.47 325.06 L .59 .80 Z"
_FLASK_TOP = ("R .40 .82 .20 .13 .04", "R .33 .74 .34 .10 .04")  # cork, then lip over it
_SHIELD = (
    "M .5 .94 C .64 .86 .76 .84 .90 .84 L .90 .56 C .90 .32 .72 .16 .5 .06 "
    "C .28 .16 .10 .32 .10 .56 L .10 .84 C .24 .84 .36 .86 .5 .94 Z"
)
_DISC = "O .5 .5 .44"
_SHINE = "#ffffff"


def _flask(pen: _Pen, symbol=None, symbol_tone=None) -> None:
    pen.shape(_FLASK_TOP[0], tone="#b07a4a")  # cork
    pen.shape(_FLASK, accents=(("M .25 .38 C .25 .28 .29 .21 .36 .16 C .33 .23 .31 .30 .31 .38 Z", _SHINE),))
    pen.shape(_FLASK_TOP[1])
    if symbol:
        pen.mark(symbol, tone=symbol_tone)


def _fire(pen: _Pen) -> None:
    # A main tongue leaning right and a smaller one on the left: reads as fire even in outline.
    pen.shape(
        GEM_SYMBOLS["fire"],
        accents=(
            (
                "M .50 .14 C .64 .14 .72 .24 .70 .37 C .68 .48 .60 .54 .59 .64 "
                "C .50 .56 .32 .50 .32 .36 C .32 .22 .40 .14 .50 .14 Z",
                "#ffd43b",
            ),
        ),
    )


def _earth(pen: _Pen) -> None:
    snow_line = "M .529 .70 L .57 .64 L .615 .71 L .66 .64 L .703 .70"
    pen.shape(
        GEM_SYMBOLS["earth"],
        accents=(("M .62 .90 " + snow_line.replace("M", "L") + " Z", "#f1f3f5"),),
    )
    pen.line(snow_line)


def _air(pen: _Pen) -> None:
    # Open strokes rather than a filled blob: the one element with no solid silhouette.
    pen.tube("M .14 .62 L .62 .62 A .62 .745 .125 -90 250", 0.075)
    pen.tube("M .26 .38 L .70 .38 A .70 .255 .125 90 -250", 0.075)


def _water(pen: _Pen) -> None:
    pen.shape(
        GEM_SYMBOLS["water"],
        accents=(("M .28 .38 C .28 .27 .34 .19 .43 .15 C .38 .22 .35 .30 .35 .38 Z", "#d0ebff"),),
    )


def _trump(pen: _Pen) -> None:
    pen.shape("M .16 .14 L .84 .14 L .88 .70 L .68 .46 L .50 .78 L .32 .46 L .12 .70 Z")
    pen.line("M .17 .27 L .83 .27", width=_OUTLINE * 0.8)
    for ball in ("O .12 .72 .065", "O .50 .81 .07", "O .88 .72 .065"):
        pen.shape(ball)


def _spell(pen: _Pen) -> None:
    pen.tube("M .15 .15 L .58 .58", 0.09, tone="#5c3d2e")  # wand, tucked under the sparkle
    pen.shape(_sparkle(0.66, 0.66, 0.29))
    pen.shape(_sparkle(0.24, 0.78, 0.13))
    pen.shape(_sparkle(0.84, 0.22, 0.10))


def _antidote(pen: _Pen) -> None:
    _flask(
        pen,
        "M .45 .24 L .55 .24 L .55 .33 L .64 .33 L .64 .43 L .55 .43 L .55 .52 "
        "L .45 .52 L .45 .43 L .36 .43 L .36 .33 L .45 .33 Z",
        _SHINE,
    )


def _counter(pen: _Pen) -> None:
    pen.shape(_SHIELD)
    pen.mark(_sparkle(0.5, 0.53, 0.27, pinch=0.18), tone=_SHINE)


def _shield(pen: _Pen) -> None:
    pen.shape(_SHIELD, accents=((_scaled(_SHIELD, 0.68, oy=0.52), "#dee2e6"),))
    pen.line(_scaled(_SHIELD, 0.68, oy=0.52))


def _exclaim(pen: _Pen) -> None:
    pen.shape(_DISC)
    pen.line("M .5 .74 L .5 .45", width=0.14)
    pen.mark("O .5 .25 .075")


def _question(pen: _Pen) -> None:
    pen.shape(_DISC)
    pen.line("A .5 .64 .14 170 -250 C .50 .48 .50 .46 .50 .42", width=0.13, tone=_SHINE)
    pen.mark("O .5 .25 .075", tone=_SHINE)


def _spirit(pen: _Pen) -> None:
    # A wisp: round body, tail swept to one side (unlike the upright flame and drop), two eyes.
    pen.shape(
        "M .50 .06 C .28 .06 .16 .22 .16 .40 C .16 .66 .40 .80 .74 .95 "
        "C .62 .84 .84 .66 .84 .40 C .84 .22 .72 .06 .50 .06 Z"
    )
    pen.mark("E .40 .36 .045 .065 E .60 .36 .045 .065")


def _credit(pen: _Pen) -> None:
    pen.shape("M .20 .18 L .80 .18 L .80 .82 L .20 .82 Z")
    pen.line("M .31 .64 L .69 .64 M .31 .52 L .69 .52 M .31 .40 L .58 .40", width=0.045)
    for roll in ("R .10 .06 .80 .14 .07", "R .10 .80 .80 .14 .07"):
        pen.shape(roll)


def _die(pen: _Pen) -> None:
    pen.shape("R .06 .06 .88 .88 .16")
    pen.mark(
        " ".join(f"O {_fmt(x, y)} .09" for x, y in ((0.28, 0.28), (0.72, 0.72), (0.28, 0.72), (0.72, 0.28), (0.5, 0.5)))
    )


def _heart(pen: _Pen) -> None:
    pen.shape(
        "M .50 .10 C .30 .28 .06 .42 .06 .64 C .06 .82 .20 .92 .32 .92 C .42 .92 .48 .86 .50 .78 "
        "C .52 .86 .58 .92 .68 .92 C .80 .92 .94 .82 .94 .64 C .94 .42 .70 .28 .50 .10 Z",
        accents=(("M .17 .64 C .17 .74 .23 .81 .31 .82 C .26 .77 .24 .71 .24 .64 Z", "#ffc9c9"),),
    )


def _gem(pen: _Pen) -> None:
    pen.shape(
        "M .28 .89 L .72 .89 L .94 .63 L .50 .11 L .06 .63 Z",
        accents=(("M .38 .63 L .50 .89 L .62 .63 Z", "#99e9f2"), ("M .06 .63 L .38 .63 L .50 .11 Z", "#66d9e8")),
    )
    pen.line("M .06 .63 L .94 .63 M .28 .89 L .38 .63 L .50 .89 L .62 .63 L .72 .89 M .38 .63 L .50 .11 L .62 .63")


def _moon(pen: _Pen) -> None:
    pen.shape(GEM_SYMBOLS["moon"])


def _coin(pen: _Pen) -> None:
    pen.shape(_DISC, accents=(("A .5 .5 .38 110 70 A .5 .5 .33 180 -70 Z", "#ffe066"),))
    pen.line("O .5 .5 .32")
    pen.mark("M .5 .66 L .59 .5 L .5 .34 L .41 .5 Z")


def _always(pen: _Pen) -> None:
    # A ring that runs back into itself: an effect that keeps working, unlike the one-off wisp.
    pen.tube("A .5 .5 .34 100 300", 0.11)
    pen.shape("M .64 .88 L .90 .84 L .66 .62 Z")  # the arrowhead where the ring ends


def _star_icon(pen: _Pen) -> None:
    pen.shape(GEM_SYMBOLS["star"])


def _draw(pen: _Pen) -> None:
    # A drawstring bag with a gem rising out of its mouth: a gem drawn from your bag.
    pen.shape(
        "M .30 .58 C .12 .50 .06 .28 .14 .12 C .20 .02 .80 .02 .86 .12 C .94 .28 .88 .50 .70 .58 Z",
        accents=(("M .24 .42 C .20 .32 .22 .22 .28 .17 C .28 .25 .28 .33 .31 .42 Z", "#f3d9b1"),),
    )
    pen.shape("R .27 .54 .46 .08 .04")  # the gathered neck
    pen.shape("M .50 .96 L .66 .82 L .50 .66 L .34 .82 Z", tone="#15aabf")  # the gem leaving it
    pen.line("M .34 .82 L .66 .82 M .50 .66 L .50 .96")


def _attack(pen: _Pen) -> None:
    # A bolt striking down and to the left: a blow, unlike the upright flame or the drop.
    pen.shape("M .62 .96 L .18 .50 L .45 .50 L .30 .04 L .84 .58 L .55 .58 L .80 .96 Z")
    pen.line("M .42 .58 L .60 .86", width=_DETAIL * 1.2, tone=_SHINE)


def _vanish(pen: _Pen) -> None:
    # A gem dissolving into a swirl of three arcs: a gem leaves the board for the Score Area.
    pen.tube("A .5 .5 .40 200 250", 0.07)
    pen.tube("A .5 .5 .27 20 250", 0.06)
    pen.shape("M .5 .64 L .62 .5 L .5 .36 L .38 .5 Z", tone="#15aabf")


def _wild(pen: _Pen) -> None:
    # A disc in the four basic gems' quarters round a white star: any colour pays it.
    quarters = (("#d9480f", 0), ("#1c7ed6", 90), ("#37b24d", 180), ("#e0a800", 270))
    for tone, start in quarters:
        pen.shape(f"M .5 .5 A .5 .5 .44 {start} 90 Z", tone=tone)
    pen.mark(_star(0.5, 0.5, 0.27, 0.45), tone=_SHINE)
    pen.line(_star(0.5, 0.5, 0.27, 0.45))


# name: (fill, outline or None for a darker shade of the fill, drawing)
_ICONS = {
    "fire": ("#d9480f", None, _fire),
    "earth": ("#8d6e3f", None, _earth),
    "air": ("#74c0fc", None, _air),
    "water": ("#1c7ed6", None, _water),
    "trump": ("#e0a800", None, _trump),
    "spell": ("#7048e8", None, _spell),
    "potion": ("#ae3ec9", None, _flask),
    "counter": ("#7048e8", None, _counter),
    "antidote": ("#37b24d", None, _antidote),
    "star": ("#e0a800", None, _star_icon),
    "exclaim": ("#e0a800", None, _exclaim),
    "question": ("#7048e8", None, _question),
    "spirit": ("#b197fc", None, _spirit),
    "credit": ("#e9c98b", "#8d6e3f", _credit),
    "die": ("#f8f9fa", "#343a40", _die),
    "heart": ("#e03131", None, _heart),
    "shield": ("#868e96", "#343a40", _shield),
    "gem": ("#15aabf", None, _gem),
    "moon": ("#ffd43b", "#8d6e3f", _moon),
    "coin": ("#e0a800", None, _coin),
    "always": ("#2f9e44", None, _always),
    "draw": ("#b07a4a", None, _draw),
    "attack": ("#f08c00", None, _attack),
    "vanish": ("#7048e8", None, _vanish),
    "wild": ("#868e96", "#343a40", _wild),
}


def draw_icon(canvas, name: str, x: float, y: float, size: float, colour=None) -> None:
    """Draw icon `name` so that its bounding square is (x, y) .. (x+size, y+size) in points,
    (x, y) being the bottom-left corner, i.e. the icon sits ON y (used as a text baseline).
    colour: a reportlab Color or None for the icon's own default colour(s).
    The canvas state (colours, line width, transform...) is left as it was found.
    Raises KeyError(name) for an unknown name."""
    fill, edge, draw = _ICONS[name]
    if size <= 0:
        return
    if colour is None:
        ink = HexColor(fill)
        pen_edge = HexColor(edge) if edge else _darker(ink)
    else:
        ink = _colour(colour)
        pen_edge = _darker(ink)
    canvas.saveState()
    try:
        canvas.translate(x, y)
        canvas.scale(size, size)
        canvas.setLineJoin(1)  # round joins and caps: no mitre spikes past the square
        canvas.setLineCap(1)
        draw(_Pen(canvas, size, ink, pen_edge, colour is not None))
    finally:
        canvas.restoreState()


def icon_advance(name: str, size: float) -> float:
    """Horizontal space the icon takes inline at this size (its width plus a small side bearing), in points."""
    _ICONS[name]  # KeyError(name) for an unknown icon, as draw_icon
    return size * (1 + _BEARING)


def stamp_icon(canvas, name: str, x: float, y: float, size: float, colour=None) -> None:
    """draw_icon, with each (icon, colour, size) drawn once per document as a form and reused:
    the same few icons recur on every card, and their paths are most of a deck's numbers."""
    tone = "own" if colour is None else _colour(colour).hexval()[2:]
    key = f"icon-{name}-{tone}-{size:.3f}"
    if not canvas.hasForm(key):
        canvas.beginForm(key, 0, 0, size, size)
        draw_icon(canvas, name, 0, 0, size, colour)
        canvas.endForm()
    canvas.saveState()
    canvas.translate(x, y)
    canvas.doForm(key)
    canvas.restoreState()
