"""What a game's printed module hands over (its makers) and what each maker is given: the contract
between a game's printed set and the set list that puts it together (pnp.components.set_list)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pnp.components.card import Face
from pnp.components.templates import Templates
from pnp.content.loader import Content


@dataclass(frozen=True)
class SetInputs:
    """What every maker is given."""

    content: Content
    templates: Templates
    sheets: int | None = None  # player sheets asked for (--sheets); None: the game's default


@dataclass(frozen=True)
class SheetDrawing:
    """What a sheet maker gives: its page count and how to draw a page (kinds.Sheet.draw)."""

    pages: int
    draw: Callable
    source: str | None = None  # the content kind whose fields a SheetError names


@dataclass(frozen=True)
class Makers:
    """A game's makers by the names its set template uses."""

    # a face maker: (inputs, the template its set entry names) -> faces, one per physical piece
    faces: dict[str, Callable[[SetInputs, str], Sequence[Face]]]
    sheets: dict[str, Callable[[SetInputs], SheetDrawing]] = field(default_factory=dict)
    # a board maker: (inputs, the board template its set entry names) -> a face for each board
    boards: dict[str, Callable[[SetInputs, str], Sequence[Face]]] = field(default_factory=dict)
