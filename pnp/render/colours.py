"""Colours written as #rrggbb in templates, or as names a template defines; ink-saver choices."""

from __future__ import annotations

import re
from functools import cache

from reportlab.lib.colors import Color, HexColor

HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


@cache
def to_colour(hex_value: str) -> Color:
    return HexColor(hex_value)


def resolve(value: str, palette: dict[str, str]) -> Color:
    """A colour name from the template's palette, or a literal #rrggbb."""
    return to_colour(palette.get(value, value))


def luminance(c: Color) -> float:
    return 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue


def contrast(a: Color, b: Color) -> float:
    """WCAG's contrast ratio of two colours, 1 to 21 (4.5 reads as body text)."""

    def relative(c: Color) -> float:
        linear = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c.rgb()]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((relative(a), relative(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def legible_on(ground: Color, dark: Color, light: Color) -> Color:
    """Of the two, the colour that contrasts more with `ground` (a mark on a piece's ink)."""
    return dark if contrast(ground, dark) >= contrast(ground, light) else light


class Ink:
    """Colour choices for a face; in ink-saver mode fills vanish and light colours turn to ink."""

    def __init__(self, palette: dict[str, str], saver: bool):
        self.palette, self.saver = palette, saver
        self.ink = resolve(palette.get("ink", "#000000"), {})

    def colour(self, name: str) -> Color:
        colour = resolve(name, self.palette)
        if self.saver and luminance(colour) > 0.6:
            return self.ink
        return colour
