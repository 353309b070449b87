"""Tabletop Simulator decks: PNG sheets of up to 10 x 7 cards, one back image per deck, and a saved
object that spawns them all (pnp.tts_object).

TTS keeps a sheet's last slot for the hidden-card image (what a card in a hidden zone shows): the
deck's back goes there, so a sheet holds at most 69 cards. A deck whose cards each have their own
back (two-sided cards) also gets a sheet of backs in the same grid, which TTS takes as unique backs
(its hidden-card slot shows the first card's back); the deck's back image is then the first card's.
"""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from pnp.components.kinds import Component, Deck
from pnp.raster import rasterise
from pnp.tts_object import Sheet, TtsDeck, file_url, saved_object
from pnp.units import INCH

COLUMNS, ROWS = 10, 7
PER_SHEET = COLUMNS * ROWS - 1
CARD_WIDTH_PX = 400  # 10 across stays within the 4096 px TTS handles best


def export_decks(
    game_id: str, title: str, components: list[Component], templates: dict, out: Path, url_base: str | None = None
) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    manifest: dict[str, dict] = {}
    decks: list[TtsDeck] = []
    for deck in (c for c in components if isinstance(c, Deck)):
        faces = list(deck.faces)
        size = templates[deck.template].size
        dpi = CARD_WIDTH_PX / size.width * INCH  # CARD_WIDTH_PX across, whatever the piece's size
        own = list(deck.backs) if deck.backs is not None else None
        images = dict(rasterise(faces + list(deck.all_backs()), templates, 0.0, dpi))  # trimmed
        w, h = images[faces[0]].size
        first_back = own[0] if own else deck.back
        back = images[first_back].resize((w, h)) if first_back else Image.new("RGB", (w, h), "white")
        sheets = []
        for number, start in enumerate(range(0, len(faces), PER_SHEET), 1):
            chunk = faces[start : start + PER_SHEET]
            # TTS asks for the grid's width and height; a short deck gets a grid just big enough
            columns = min(COLUMNS, len(chunk) + 1)
            rows = -(-(len(chunk) + 1) // columns)
            sheet = Image.new("RGB", (columns * w, rows * h), "white")
            for i, face in enumerate(chunk):
                sheet.paste(images[face].resize((w, h)), ((i % columns) * w, (i // columns) * h))
            sheet.paste(back, ((columns - 1) * w, (rows - 1) * h))
            path = out / f"{game_id}-{deck.id}-{number}.png"
            sheet.save(path, optimize=True)
            written.append(path)
            backs_path = None
            if own is not None:
                backs = Image.new("RGB", (columns * w, rows * h), "white")
                for i, face in enumerate(own[start : start + PER_SHEET]):
                    backs.paste(images[face].resize((w, h)), ((i % columns) * w, (i // columns) * h))
                backs.paste(back, ((columns - 1) * w, (rows - 1) * h))
                backs_path = out / f"{game_id}-{deck.id}-{number}-backs.png"
                backs.save(backs_path, optimize=True)
                written.append(backs_path)
            sheets.append(Sheet(path, columns, rows, tuple(chunk), backs_path))
            manifest[path.name] = {"deck": deck.title, "columns": columns, "rows": rows, "cards": len(chunk)}
        back_path = out / f"{game_id}-{deck.id}-back.png"
        back.save(back_path, optimize=True)
        written.append(back_path)
        decks.append(TtsDeck(deck.title, tuple(sheets), back_path, size.width == size.height, size.width))
    path = out / f"{game_id}-tts.json"
    path.write_text(json.dumps(manifest, indent=2) + "\n")
    saved = out / f"{game_id}.json"
    saved.write_text(json.dumps(saved_object(title, decks, file_url(url_base)), indent=2) + "\n")
    return written + [path, saved]
