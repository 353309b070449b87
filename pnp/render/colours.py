"""Colours written as #rrggbb in templates, or as names a template defines."""

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
