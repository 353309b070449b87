"""Reading a built PDF back: where each card face was placed, the crop marks, the text.

Cards are placed as form XObjects; walking each page's content stream with its graphics-state
stack gives every placement's position, read from the PDF itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import pdfplumber
from pypdf import PdfReader
from pypdf.generic import ContentStream

MM = 72 / 25.4


@dataclass(frozen=True)
class Placement:
    form: str
    x: float  # the form's origin on the page: the trim's bottom-left corner
    y: float
    w: float  # trim size: the form's bounding box less the bleed on each side
    h: float

    @property
    def rect(self):
        return (self.x, self.y, self.x + self.w, self.y + self.h)


def multiply(m, n):
    """PDF matrix product m x n (m applied first), as the `cm` operator composes them."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


class BuiltPdf:
    def __init__(self, path, bleed_mm: float = 3.0):
        self.path = path
        self.reader = PdfReader(str(path))
        self.bleed = bleed_mm * MM

    def __len__(self):
        return len(self.reader.pages)

    def size(self, page: int) -> tuple[float, float]:
        box = self.reader.pages[page].mediabox
        return float(box.width), float(box.height)

    def placements(self, page: int) -> list[Placement]:
        pdf_page = self.reader.pages[page]
        xobjects = pdf_page["/Resources"].get("/XObject", {})
        ops = ContentStream(pdf_page.get_contents(), self.reader).operations
        stack, ctm, found = [], (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), []
        for operands, op in ops:
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q":
                ctm = stack.pop()
            elif op == b"cm":
                ctm = multiply(tuple(map(float, operands)), ctm)
            elif op == b"Do":
                assert ctm[:4] == (1, 0, 0, 1), "cards are placed upright and unscaled"
                name = str(operands[0])
                x0, y0, x1, y1 = map(float, xobjects[name].get_object()["/BBox"])
                found.append(Placement(name, ctm[4], ctm[5], x1 - x0 - 2 * self.bleed, y1 - y0 - 2 * self.bleed))
        return found

    @cached_property
    def plumber(self):
        return pdfplumber.open(str(self.path))

    def lines(self, page: int):
        return [(l["x0"], l["y0"], l["x1"], l["y1"]) for l in self.plumber.pages[page].lines]

    def chars(self, page: int):
        """Characters with PDF-style coordinates (origin bottom-left)."""
        p = self.plumber.pages[page]
        return [dict(c, y0=p.height - c["bottom"], y1=p.height - c["top"]) for c in p.chars]

    def text(self, page: int) -> str:
        """The page's text in every orientation (side bands are turned 90 degrees), spaces normalised."""
        return " ".join(self.reader.pages[page].extract_text().split())

    def text_in(self, page: int, rect) -> str:
        x0, y0, x1, y1 = rect
        chars = [c for c in self.chars(page) if x0 <= c["x0"] and c["x1"] <= x1 and y0 <= c["y0"] and c["y1"] <= y1]
        chars.sort(key=lambda c: (-round(c["y0"]), c["x0"]))
        return "".join(c["text"] for c in chars)
