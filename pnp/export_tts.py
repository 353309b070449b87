"""Tabletop Simulator decks: PNG sheets of up to 10 x 7 cards and one back image per deck.

Faces are drawn by the same code as the PDF (without bleed) and rasterised with pdfium, so
the table shows exactly what prints. TTS keeps a sheet's last slot for the hidden-card image,
so a sheet holds at most 69 cards.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from pnp.components.card import Face, draw_face
from pnp.components.kinds import Component, Deck
from pnp.render import fonts

COLUMNS, ROWS = 10, 7
PER_SHEET = COLUMNS * ROWS - 1
CARD_WIDTH_PX = 400  # 10 across stays within the 4096 px TTS handles best


def rasterise(faces: list[Face], templates: dict) -> dict[Face, Image.Image]:
    """Each distinct face as an image CARD_WIDTH_PX wide, trimmed to its cut line."""
    unique = list(dict.fromkeys(faces))
    buffer = io.BytesIO()
    canvas = fonts.new_canvas(buffer)
    for face in unique:
        size = templates[face.template].size
        canvas.setPageSize((size.width, size.height))
        draw_face(canvas, face, templates[face.template], 0.0, False)
        canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(buffer.getvalue())
    images = {}
    for face, page in zip(unique, document, strict=True):
        scale = CARD_WIDTH_PX / page.get_width()
        images[face] = page.render(scale=scale).to_pil().convert("RGB")
    return images


def export_decks(game_id: str, components: list[Component], templates: dict, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    manifest: dict[str, dict] = {}
    for deck in (c for c in components if isinstance(c, Deck)):
        faces = list(deck.faces)
        images = rasterise(faces + ([deck.back] if deck.back else []), templates)
        w, h = images[faces[0]].size
        for number, start in enumerate(range(0, len(faces), PER_SHEET), 1):
            chunk = faces[start : start + PER_SHEET]
            # TTS asks for the grid's width and height; a short deck gets a grid just big enough
            columns = min(COLUMNS, len(chunk) + 1)
            rows = -(-(len(chunk) + 1) // columns)
            sheet = Image.new("RGB", (columns * w, rows * h), "white")
            for i, face in enumerate(chunk):
                sheet.paste(images[face].resize((w, h)), ((i % columns) * w, (i // columns) * h))
            path = out / f"{game_id}-{deck.id}-{number}.png"
            sheet.save(path, optimize=True)
            written.append(path)
            manifest[path.name] = {"deck": deck.title, "columns": columns, "rows": rows, "cards": len(chunk)}
        if deck.back:
            path = out / f"{game_id}-{deck.id}-back.png"
            images[deck.back].save(path, optimize=True)
            written.append(path)
    path = out / f"{game_id}-tts.json"
    path.write_text(json.dumps(manifest, indent=2) + "\n")
    return written + [path]
