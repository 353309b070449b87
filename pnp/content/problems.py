"""Content problems: one line each, `file:line:col: field: what is wrong (expected ..., got ...)`."""

from __future__ import annotations

import os
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path


@dataclass(frozen=True, order=True)
class Mark:
    """Where a value was written."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


def display_path(path: Path) -> str:
    """How a file is named in a problem: relative to the working directory when under it."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


# Characters that end a line or move a terminal's cursor, shown escaped where a problem quotes the
# user's own text (a card's name in a message): each problem stays one line, as written.
_ESCAPED = {code: ascii(chr(code))[1:-1] for code in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029)}


@dataclass(frozen=True, order=True)
class Problem:
    mark: Mark
    field: str
    message: str

    def __str__(self) -> str:
        field = f" {self.field}:" if self.field else ""
        return f"{self.mark}:{field} {self.message}".translate(_ESCAPED)


class ContentError(Exception):
    """All the problems found in one run, reported together."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems))
        super().__init__("\n".join(map(str, self.problems)))


def expected_got(expected: str, got: object, choices: list[str] = ()) -> str:
    """`expected ..., got ...`, with a suggestion when `got` is a near miss of one of `choices`."""
    return f"expected {expected}, got {describe(got)}{did_you_mean(got, choices)}"


def closest(got: object, choices, cutoff: float = 0.75) -> str | None:
    """The choice a near miss most likely meant, if any: every "did you mean" asks here."""
    close = get_close_matches(got, list(choices), n=1, cutoff=cutoff) if isinstance(got, str) else []
    return close[0] if close else None


def did_you_mean(got: object, choices: list[str]) -> str:
    close = closest(got, choices)
    return f"; did you mean {close!r}?" if close else ""


def describe(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
