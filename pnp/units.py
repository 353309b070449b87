"""Lengths as designers write them ("63.5mm", "2in", "9pt", bare numbers in mm), held as points."""

from __future__ import annotations

import re

MM = 72 / 25.4
INCH = 72.0
_FACTORS = {"mm": MM, "in": INCH, "pt": 1.0}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|in|pt)?\s*$")


def parse_length(value: object) -> float:
    """Return `value` in points; a bare number is millimetres."""
    if isinstance(value, bool):
        raise ValueError("a length such as 3mm, 0.5in or 9pt")
    if isinstance(value, (int, float)):
        return float(value) * MM
    if isinstance(value, str):
        match = _LENGTH.match(value)
        if match:
            return float(match.group(1)) * _FACTORS[match.group(2) or "mm"]
    raise ValueError("a length such as 3mm, 0.5in or 9pt")


def parse_font_size(value: object) -> float:
    """Font sizes are points unless a unit says otherwise."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return parse_length(value)


def mm(points: float) -> float:
    """Points to millimetres, for messages and tests."""
    return points / MM
