"""Faces as images: each drawn by the same code as the PDF onto a page of its own and rasterised
by pdfium, so an exported image shows exactly what prints."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from pnp.components.card import Face, draw_face
from pnp.render import fonts
from pnp.units import INCH


def pixel_size(width: float, height: float, bleed: float, dpi: float) -> tuple[int, int]:
    """The image size of a `width` x `height` face (points) with `bleed` (points) on every side."""
    return round((width + 2 * bleed) / INCH * dpi), round((height + 2 * bleed) / INCH * dpi)


def rasterise(faces: list[Face], templates: dict, bleed: float, dpi: float) -> Iterator[tuple[Face, Image.Image]]:
    """Each distinct face and its RGB image of pixel_size, its trim centred and `bleed` around it;
    one at a time, as a deck at 1200 dpi would not fit in memory at once."""
    unique = list(dict.fromkeys(faces))
    sizes = {}
    buffer = io.BytesIO()
    canvas = fonts.new_canvas(buffer)
    for face in unique:
        template = templates[face.template]
        sizes[face] = pixel_size(template.size.width, template.size.height, bleed, dpi)
        # a page of whole pixels: rounding moves each edge by under half a pixel, and the
        # background, drawn to the larger margin, still reaches every edge
        page_w, page_h = (pixels / dpi * INCH for pixels in sizes[face])
        margin_x, margin_y = (page_w - template.size.width) / 2, (page_h - template.size.height) / 2
        canvas.setPageSize((page_w, page_h))
        canvas.translate(margin_x, margin_y)
        draw_face(canvas, face, template, max(margin_x, margin_y), False)
        canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(buffer.getvalue())
    for face, page in zip(unique, document, strict=True):
        # pdfium rounds a page's pixel size up, so a float a hair over a whole pixel adds a column
        image = page.render(scale=dpi / INCH).to_pil().convert("RGB")
        yield face, image.crop((0, 0, *sizes[face]))


def render_page(pdf: Path, number: int, dpi: float) -> Image.Image:
    """Page `number` (from 1) of the PDF at `pdf` as an RGB image of pixel_size for its page size."""
    document = pdfium.PdfDocument(pdf)
    try:
        page = document[number - 1]
        width, height = page.get_size()
        image = page.render(scale=dpi / INCH).to_pil().convert("RGB")
    finally:
        document.close()
    return image.crop((0, 0, *pixel_size(width, height, 0, dpi)))  # as above: pdfium's extra column
