"""Reading a built PDF back: where each card was placed, its crop marks, its text.

Every card is placed the same way: save the state, clip to the card's art (its trim plus bleed),
move the origin to the trim's bottom-left corner, draw (in place, or a form for a repeated face),
restore. Walking each page's content stream finds those placements; the crop marks, read
separately, give each card's trim size.
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
    form: str | None  # the form drawn, for a face printed more than once; None when drawn in place
    x: float  # the trim's bottom-left corner
    y: float
    art: tuple[float, float, float, float]  # the clip: x0, y0, x1, y1
    w: float = 0.0  # trim size, measured from the crop marks
    h: float = 0.0

    @property
    def rect(self):
        return (self.x, self.y, self.x + self.w, self.y + self.h)


def multiply(m, n):
    """PDF matrix product m x n (m applied first), as the `cm` operator composes them."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def transform(m, x, y) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


class BuiltPdf:
    def __init__(self, path):
        self.path = path
        self.reader = PdfReader(str(path))

    def __len__(self):
        return len(self.reader.pages)

    def size(self, page: int) -> tuple[float, float]:
        box = self.reader.pages[page].mediabox
        return float(box.width), float(box.height)

    def placements(self, page: int) -> list[Placement]:
        pdf_page = self.reader.pages[page]
        ops = ContentStream(pdf_page.get_contents(), self.reader).operations
        identity = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        stack, ctm, rect, clip = [], identity, None, None
        open_at: dict[int, Placement] = {}  # depth of the saved state a placement lives in
        found: list[Placement] = []
        for operands, op in ops:
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q":
                if len(stack) in open_at:
                    found.append(open_at.pop(len(stack)))
                ctm = stack.pop()
            elif op == b"re":
                x, y, w, h = map(float, operands)
                rect = transform(ctm, x, y) + transform(ctm, x + w, y + h)
            elif op in (b"W", b"W*"):
                clip = rect
            elif op == b"cm":
                ctm = multiply(tuple(map(float, operands)), ctm)
                if clip is not None and not open_at and ctm[:4] == identity[:4]:
                    open_at[len(stack)] = Placement(None, ctm[4], ctm[5], clip)
                clip = None
            elif op == b"Do" and len(stack) in open_at and open_at[len(stack)].form is None:
                open_at[len(stack)] = Placement(
                    str(operands[0]), *[getattr(open_at[len(stack)], f) for f in ("x", "y", "art")]
                )
        marks = self.crop_marks(page, found)
        return [m for m in (self._measured(p, marks) for p in found) if m is not None]

    @staticmethod
    def _measured(p: Placement, marks) -> Placement | None:
        """The trim size from the crop marks: the next mark right of and above the origin.
        A placement with no marks to cut it out (a full-page sheet) is not a card."""
        rights = [l[0] for l in marks if l[0] == l[2] and l[0] > p.x + 1 * MM]
        tops = [l[1] for l in marks if l[1] == l[3] and l[1] > p.y + 1 * MM]
        if not rights or not tops:
            return None
        return Placement(p.form, p.x, p.y, p.art, min(rights) - p.x, min(tops) - p.y)

    def crop_marks(self, page: int, placements: list[Placement] | None = None):
        """Straight lines lying outside every card's art: the marks to cut along."""
        arts = [p.art for p in (placements if placements is not None else self.placements(page))]

        def within(line, art) -> bool:
            return (
                art[0] <= min(line[0], line[2])
                and max(line[0], line[2]) <= art[2]
                and art[1] <= min(line[1], line[3])
                and max(line[1], line[3]) <= art[3]
            )

        return [l for l in self.lines(page) if not any(within(l, a) for a in arts)]

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
        lines: dict[int, list] = {}
        for c in chars:
            lines.setdefault(round(c["y0"]), []).append(c)
        # a wrapped line ends where a word did: join lines with a space
        return " ".join(
            "".join(c["text"] for c in sorted(lines[y], key=lambda c: c["x0"])) for y in sorted(lines, reverse=True)
        )
