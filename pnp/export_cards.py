"""Card images for print-on-demand shops: one PNG per card and one per deck back, at the printed
size with bleed, in a folder per deck and named by the card. A deck whose cards each have their own
back (two-sided cards) gets one back per card instead, named after its front: 001-card-back.png."""

from __future__ import annotations

import re
from pathlib import Path

from pnp.components.card import Face
from pnp.components.kinds import Component, Deck
from pnp.raster import rasterise


def slug(text: str) -> str:
    """`Merlin's Power Blast` as merlins-power-blast: lower case, no apostrophes, one hyphen between words."""
    return re.sub(r"[^a-z0-9]+", "-", re.sub(r"['’]", "", text.lower())).strip("-") or "card"


def card_names(deck: Deck) -> list[str]:
    """File names in deck order, numbered so that repeats and cards of one name stay apart."""
    digits = max(3, len(str(len(deck.faces))))
    return [f"{number:0{digits}d}-{slug(face.label)}.png" for number, face in enumerate(deck.faces, 1)]


def export_cards(
    game_id: str, components: list[Component], templates: dict, bleed: float, dpi: int, out: Path
) -> list[Path]:
    written: list[Path] = []
    for deck in (c for c in components if isinstance(c, Deck)):
        folder = out / game_id / deck.id
        folder.mkdir(parents=True, exist_ok=True)
        for stale in folder.glob("*.png"):  # a shop takes the whole folder: no card a past export left
            stale.unlink()
        names = card_names(deck)
        named = list(zip(names, deck.faces, strict=True))
        if deck.backs is not None:
            backs = zip(names, deck.backs, strict=True)
            named += [(name.removesuffix(".png") + "-back.png", back) for name, back in backs]
        elif deck.back:
            named.append(("back.png", deck.back))
        paths: dict[Face, list[Path]] = {}
        for name, face in named:
            paths.setdefault(face, []).append(folder / name)
        for face, image in rasterise(list(paths), templates, bleed, dpi):
            for path in paths[face]:  # a repeated card: a file for each copy, for the shop's count
                image.save(path, dpi=(dpi, dpi))
        written += sorted(p for face_paths in paths.values() for p in face_paths)
    return written
