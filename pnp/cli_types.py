"""The value types of every command-line option (pnp's and the companion's): each checks what was
typed itself and says what it expected and what it got in our words, as content problems do.
click's own types word their refusals as each release of click does, and that wording has changed
between releases; what a user reads, and what our tests read, stays ours."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import click
from click.shell_completion import CompletionItem

WHOLE = re.compile(r"\s*[+-]?\d+\s*")


class WholeNumber(click.ParamType):
    """A whole number, from `low` and up to `high` when given."""

    name = "integer"

    def __init__(self, low: int | None = None, high: int | None = None):
        self.low, self.high = low, high

    def expected(self) -> str:
        if self.low is not None and self.high is not None:
            return f"a whole number from {self.low} to {self.high}"
        if self.low is not None:
            return f"a whole number of {self.low} or more"
        return "a whole number" if self.high is None else f"a whole number of at most {self.high}"

    def convert(self, value, param, ctx) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and WHOLE.fullmatch(value):
            number = int(value)
        else:
            self.fail(f"expected {self.expected()}, got {value!r}", param, ctx)
        if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
            self.fail(f"expected {self.expected()}, got {number}", param, ctx)
        return number

    def get_metavar(self, param, ctx=None) -> str:  # (param) before click 8.2, (param, ctx) since
        return f"{self.low}-{self.high}" if self.low is not None and self.high is not None else "N"


class Number(click.ParamType):
    """A number, such as 3 or -0.5 (its bounds, nan and inf are the option's own check)."""

    name = "number"

    def convert(self, value, param, ctx) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"expected a number such as 3 or 0.5, got {value!r}", param, ctx)
        return number


class OneOf(click.ParamType):
    """One of `choices` (read in any case unless `case_sensitive`), completed by the shell."""

    name = "choice"

    def __init__(self, choices: Sequence[str], case_sensitive: bool = True):
        self.choices, self.case_sensitive = list(choices), case_sensitive

    def convert(self, value, param, ctx) -> str:
        fold = (lambda s: s) if self.case_sensitive else str.casefold
        for choice in self.choices:
            if fold(str(value)) == fold(choice):
                return choice
        self.fail(f"expected one of {', '.join(self.choices)}, got {value!r}", param, ctx)

    def get_metavar(self, param, ctx=None) -> str:
        return f"[{'|'.join(self.choices)}]"

    def shell_complete(self, ctx, param, incomplete: str) -> list[CompletionItem]:
        return [CompletionItem(c) for c in self.choices if c.casefold().startswith(incomplete.casefold())]


class Place(click.ParamType):
    """A path to a folder or a file (`kind`), which must already be there if `existing`; a path
    that is there must be of that kind."""

    def __init__(self, kind: Literal["folder", "file"], existing: bool = False):
        self.kind, self.existing, self.name = kind, existing, kind

    def convert(self, value, param, ctx) -> Path:
        path = Path(value)
        if not path.exists():
            if self.existing:
                self.fail(f"expected an existing {self.kind}, found nothing at {str(value)!r}", param, ctx)
            return path
        if self.kind == "folder" and not path.is_dir():
            self.fail(f"expected a folder, {str(value)!r} is a file", param, ctx)
        if self.kind == "file" and path.is_dir():
            self.fail(f"expected a file, {str(value)!r} is a folder", param, ctx)
        return path

    def get_metavar(self, param, ctx=None) -> str:
        return "DIR" if self.kind == "folder" else "FILE"

    def shell_complete(self, ctx, param, incomplete: str) -> list[CompletionItem]:
        return [CompletionItem(incomplete, type="dir" if self.kind == "folder" else "file")]
