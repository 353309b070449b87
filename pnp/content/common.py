"""Content kinds every game has."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pnp.content.validate import Strict


class GameInfo(Strict):
    """kind: game — the game's name and what its box would say."""

    kind: Literal["game"]
    title: str = Field(min_length=1)
    players: str
    tagline: str = ""


class ReferenceSection(Strict):
    heading: str
    text: str  # rich text: **bold**, *italic*, :icon:


class ReferenceCard(Strict):
    """kind: reference-card — a rules summary printed on cards, one per player."""

    kind: Literal["reference-card"]
    title: str
    copies: int = Field(ge=1, le=12)
    sections: list[ReferenceSection] = Field(min_length=1)
