"""A Tabletop Simulator saved object: every exported deck as a custom deck, which TTS spawns in one
go from its Saved Objects folder. Field names follow TTS's save file format."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from pnp.components.card import Face
from pnp.units import MM

# TTS's card shapes (CustomDeck "Type"): 0 rounded rectangle (its default, for cards) to 4 circle,
# and in newer versions 5 rounded square and 6 square; tiles are cut with square corners
RECTANGLE_ROUNDED, SQUARE = 0, 6
POKER_WIDTH = 63.5 * MM  # the width TTS gives a card at scale 1
DECK_SPACING = 3.0  # TTS units between decks laid out in a row


@dataclass(frozen=True)
class Sheet:
    """One image of a deck's faces in a grid, its last cell kept for TTS's hidden card."""

    path: Path
    columns: int
    rows: int
    faces: tuple[Face, ...]
    backs: Path | None = None  # a sheet of each card's own back, in the same grid (two-sided cards)


@dataclass(frozen=True)
class TtsDeck:
    title: str
    sheets: tuple[Sheet, ...]
    back: Path
    square: bool
    width: float  # points, of the printed piece


def file_url(base: str | None) -> Callable[[Path], str]:
    """How the saved object names an image: a file:// URL, or `base` + its file name for images
    uploaded to share (TTS fetches every URL when the object spawns)."""
    if base is None:
        return lambda path: path.resolve().as_uri()
    prefix = base if base.endswith("/") else base + "/"
    return lambda path: prefix + quote(path.name)


def _transform(x: float, width: float) -> dict:
    """Face down (turned about z), scaled so a tile lies beside a card at their printed sizes."""
    scale = width / POKER_WIDTH
    position = {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0}
    return position | {"scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def saved_object(title: str, decks: list[TtsDeck], url: Callable[[Path], str]) -> dict:
    states = []
    deck_id = 0  # TTS numbers a card deck_id * 100 + its cell, so ids are unique across the file
    for position, deck in enumerate(decks):
        place = _transform(position * DECK_SPACING, deck.width)
        custom: dict[str, dict] = {}
        cards = []
        for sheet in deck.sheets:
            deck_id += 1
            custom[str(deck_id)] = entry = {
                "FaceURL": url(sheet.path),
                "BackURL": url(sheet.backs or deck.back),
                "NumWidth": sheet.columns,
                "NumHeight": sheet.rows,
                "BackIsHidden": True,
                "UniqueBack": sheet.backs is not None,
                "Type": SQUARE if deck.square else RECTANGLE_ROUNDED,
            }
            for cell, face in enumerate(sheet.faces):
                cards.append(
                    {
                        "Name": "Card",
                        "Transform": place,
                        "Nickname": face.label,
                        "CardID": deck_id * 100 + cell,
                        "CustomDeck": {str(deck_id): entry},
                    }
                )
        states.append(
            {
                "Name": "DeckCustom",
                "Transform": place,
                "Nickname": deck.title,
                "DeckIDs": [card["CardID"] for card in cards],
                "CustomDeck": custom,
                "ContainedObjects": cards,
            }
        )
    return {"SaveName": title, "ObjectStates": states}
