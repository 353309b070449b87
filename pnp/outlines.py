"""Icon outlines as data: the small path language the printed icons are drawn in (pnp.render.icons
paints it with reportlab), and the same outlines as SVG paths, so a phone draws a gem with the very
shape its printed twin carries. Pure: no drawing library, so the companion may read it too.

A path lives in a unit square (0..1, y up). Numbers each command takes: x/y are coordinates, r a
length, a an angle (degrees). M L C Z as in SVG (absolute); A cx cy r start extent (an arc, joined
to the path); O cx cy r (circle); E cx cy rx ry (ellipse); R x y w h r (rounded rectangle).
"""

from __future__ import annotations

from functools import cache
from math import acos, atan2, cos, degrees, hypot, radians, sin

ARGS = {"M": "xy", "L": "xy", "C": "xyxyxy", "Z": "", "A": "xyraa", "O": "xyr", "E": "xyrr", "R": "xyrrr"}


@cache
def parse(spec: str) -> tuple[tuple[str, tuple[float, ...]], ...]:
    tokens, ops, i = spec.split(), [], 0
    while i < len(tokens):
        n = len(ARGS[tokens[i]])
        ops.append((tokens[i], tuple(float(t) for t in tokens[i + 1 : i + 1 + n])))
        i += 1 + n
    return tuple(ops)


def fmt(*values: float) -> str:
    return " ".join(f"{v:.4f}" for v in values)


def star(cx: float, cy: float, r: float, inner: float, points: int = 5) -> str:
    corners = [
        (cx + rr * cos(t), cy + rr * sin(t))
        for i in range(2 * points)
        for rr, t in [(r if i % 2 == 0 else r * inner, radians(90 + 180 * i / points))]
    ]
    return "M " + " L ".join(fmt(*xy) for xy in corners) + " Z"


def crescent(cx: float, cy: float, r_out: float, dx: float, dy: float, r_in: float) -> str:
    """Disc minus a disc offset by (dx, dy): the long outer arc, then back along the inner one."""
    d, toward = hypot(dx, dy), degrees(atan2(dy, dx))
    a = degrees(acos((r_out**2 + d**2 - r_in**2) / (2 * r_out * d)))  # at the outer centre
    b = degrees(acos((r_in**2 + d**2 - r_out**2) / (2 * r_in * d)))  # at the inner centre
    return (
        f"A {fmt(cx, cy, r_out, toward + a, 360 - 2 * a)} A {fmt(cx + dx, cy + dy, r_in, toward + 180 + b, -2 * b)} Z"
    )


# The silhouettes of the gems' symbols (content/magecraft/set.yaml's `symbol`), as printed.
GEM_SYMBOLS = {
    # a main tongue leaning right and a smaller one on the left: reads as fire even in outline
    "fire": "M .50 .05 C .75 .05 .88 .22 .86 .44 C .85 .62 .70 .72 .66 .96 "
    "C .56 .84 .48 .76 .44 .64 C .40 .70 .34 .74 .26 .80 "
    "C .28 .64 .14 .58 .14 .40 C .14 .20 .27 .05 .50 .05 Z",
    "water": "M .50 .96 C .56 .80 .82 .60 .82 .38 C .82 .19 .68 .06 .50 .06 "
    "C .32 .06 .18 .19 .18 .38 C .18 .60 .44 .80 .50 .96 Z",
    "earth": "M .04 .08 L .30 .60 L .42 .46 L .62 .90 L .96 .08 Z",
    "star": star(0.5, 0.47, 0.48, 0.46),
    "moon": crescent(0.5, 0.5, 0.44, 0.20, 0.14, 0.36),
}


def svg_path(spec: str) -> str:
    """`spec` as an SVG path's data in a 0..1 box with y down (a viewBox of "0 0 1 1")."""
    out, joined = [], False

    def at(x: float, y: float) -> str:
        return f"{x:.4f} {1 - y:.4f}"

    for cmd, a in parse(spec):
        if cmd in "ML":
            out.append(f"{cmd} {at(*a)}")
        elif cmd == "C":
            out.append(f"C {at(*a[0:2])} {at(*a[2:4])} {at(*a[4:6])}")
        elif cmd == "Z":
            out.append("Z")
        elif cmd == "A":
            x, y, r, start, extent = a
            s, e = radians(start), radians(start + extent)
            out.append(f"{'L' if joined else 'M'} {at(x + r * cos(s), y + r * sin(s))}")
            # y flips: an arc counter-clockwise in the unit square runs clockwise on screen (sweep 1)
            sweep, large = int(extent > 0), int(abs(extent) > 180)
            out.append(f"A {r:.4f} {r:.4f} 0 {large} {sweep} {at(x + r * cos(e), y + r * sin(e))}")
        elif cmd == "O":
            x, y, r = a
            out.append(
                f"M {at(x + r, y)} A {r:.4f} {r:.4f} 0 1 0 {at(x - r, y)} A {r:.4f} {r:.4f} 0 1 0 {at(x + r, y)} Z"
            )
        else:
            raise ValueError(f"no SVG for the path command {cmd!r}")
        joined = cmd in "MLCA"
    return " ".join(out)
