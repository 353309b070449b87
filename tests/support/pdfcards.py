"""Reading a built PDF back: where each card was placed, its crop marks, its text.

Every card is placed the same way: save the state, clip to the card's art (its trim plus the
bleed it may use), move the origin to the trim's bottom-left corner (turned a quarter when the
layout lies across the paper), then draw its face: a form, whose BBox is the face's bleed box, or
in place after clipping to that same box. The bleed box is centred on the trim, so it gives the
trim's size; the crop marks are read separately, and never used to find or size a card.
Everything is reported in page coordinates (origin bottom-left, as PDF has it); each page is
walked once and its results kept, and `read(path)` keeps each file's BuiltPdf for the session, so
every test reading the same built PDF shares one parse (pdfplumber's takes seconds for a set).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import pdfplumber
import pypdfium2
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnp.components.templates import load_templates
from pnp.imposition import MIN_MARK
from pnp.paths import TEMPLATES

MM = 72 / 25.4
PAGE = load_templates(TEMPLATES)["page"]
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Placement:
    form: str | None  # the form drawn, for a face printed more than once; None when drawn in place
    x: float  # the trim's bottom-left corner on the page
    y: float
    w: float  # the trim's size on the page (a turned card's w is its height)
    h: float
    art: tuple[float, float, float, float]  # the clip: x0, y0, x1, y1
    turns: int = 0  # quarter turns anticlockwise from upright

    @property
    def rect(self):
        return (self.x, self.y, self.x + self.w, self.y + self.h)

    def _corner(self) -> tuple[float, float]:
        """Where the upright card's origin lands, relative to the page rect's bottom-left."""
        w, h = (self.w, self.h) if self.turns % 2 == 0 else (self.h, self.w)
        xs, ys = zip(*(turn((x, y, x, y), self.turns)[:2] for x in (0, w) for y in (0, h)), strict=True)
        return -min(xs), -min(ys)

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        """A point in the upright card's frame (origin at its trim's bottom-left) on the page."""
        dx, dy = self._corner()
        px, py = turn((x, y, x, y), self.turns)[:2]
        return self.x + dx + px, self.y + dy + py

    def upright(self, bounds):
        """Page bounds (x0, y0, x1, y1) in the upright card's frame."""
        dx, dy = self._corner()
        x0, y0, x1, y1 = bounds
        return turn((x0 - self.x - dx, y0 - self.y - dy, x1 - self.x - dx, y1 - self.y - dy), -self.turns)


@dataclass(frozen=True)
class Stroke:
    """A straight stroked segment drawn outside every card, in page coordinates."""

    x0: float
    y0: float
    x1: float
    y1: float
    width: float

    @property
    def length(self) -> float:
        return math.hypot(self.x1 - self.x0, self.y1 - self.y0)

    @property
    def vertical(self) -> bool:
        return abs(self.x0 - self.x1) < 1e-6

    @property
    def horizontal(self) -> bool:
        return abs(self.y0 - self.y1) < 1e-6


def multiply(m, n):
    """PDF matrix product m x n (m applied first), as the `cm` operator composes them."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def transform(m, x, y) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def box(m, x0, y0, x1, y1) -> tuple[float, float, float, float]:
    """The page-space bounds of a rectangle drawn under matrix m."""
    xs, ys = zip(*(transform(m, x, y) for x in (x0, x1) for y in (y0, y1)), strict=True)
    return (min(xs), min(ys), max(xs), max(ys))


def quarter_turns(m) -> int | None:
    """0-3 when m is a rotation by a multiple of 90 degrees (no scale, no mirror), else None."""
    a, b, c, d = m[:4]
    for turns, (ca, cb) in enumerate(((1, 0), (0, 1), (-1, 0), (0, -1))):
        if max(abs(a - ca), abs(b - cb), abs(c + cb), abs(d - ca)) < 1e-6:
            return turns
    return None


def turn(bounds, turns: int):
    """Bounds (x0, y0, x1, y1) turned `turns` quarter turns anticlockwise about the origin."""
    x0, y0, x1, y1 = bounds
    for _ in range(turns % 4):
        x0, y0, x1, y1 = -y1, x0, -y0, x1
    return (x0, y0, x1, y1)


def read(path) -> BuiltPdf:
    """The BuiltPdf of the file at `path`, shared by every caller while the file is unchanged (a
    rebuild to the same path has a new mtime or size, so it is read afresh)."""
    stat = Path(path).stat()
    return _read(Path(path).resolve(), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)  # more than the session's distinct builds; a bound for the one-off ones in tmp_path
def _read(path: Path, mtime_ns: int, size: int) -> BuiltPdf:
    return BuiltPdf(path)


class BuiltPdf:
    def __init__(self, path):
        self.path = path
        self.reader = PdfReader(str(path))
        self._walked: dict[int, tuple[list[Placement], list[Stroke]]] = {}
        self._chars: dict[int, list[dict]] = {}
        self._lines: dict[int, list] = {}
        self._texts: list[str] = []  # every page's, read at once
        self._words: dict[tuple, list[dict]] = {}

    def __len__(self):
        return len(self.reader.pages)

    def size(self, page: int) -> tuple[float, float]:
        box = self.reader.pages[page].mediabox
        return float(box.width), float(box.height)

    def placements(self, page: int) -> list[Placement]:
        return self._walk(page)[0]

    def strokes(self, page: int) -> list[Stroke]:
        """Straight segments stroked outside every card: crop marks, the fold line, targets."""
        return self._walk(page)[1]

    def crop_marks(self, page: int) -> list[Stroke]:
        """Strokes with the page template's crop-mark width, no longer than its length (shorter
        where the paper leaves less room), wherever they lie."""
        marks = PAGE.crop_marks
        return [
            s
            for s in self.strokes(page)
            if (s.vertical or s.horizontal)
            and abs(s.width - marks.width) < 1e-3
            and MIN_MARK - 1e-3 <= s.length <= marks.length + 1e-3
        ]

    def _walk(self, page: int):
        if page not in self._walked:
            self._walked[page] = self._read(page)
        return self._walked[page]

    def _read(self, page: int) -> tuple[list[Placement], list[Stroke]]:
        pdf_page = self.reader.pages[page]
        xobjects = pdf_page["/Resources"].get_object().get("/XObject", {})
        ops = ContentStream(pdf_page.get_contents(), self.reader).operations
        stack: list[tuple] = []
        ctm, width = IDENTITY, 1.0
        path_rect, segments, point = None, [], None  # the path being built
        clip = None  # a page-level clip waiting for the cm that would make it a placement
        card: dict | None = None  # the placement being read: depth, art, ctm, and then its face box
        found: list[Placement] = []
        strokes: list[Stroke] = []
        for operands, op in ops:
            if op == b"q":
                stack.append((ctm, width))
            elif op == b"Q":
                if card is not None and card["depth"] == len(stack):
                    if card.get("box") is not None:  # without a face it was not a card (a sheet's clip)
                        found.append(self._placement(card))
                    card = None
                ctm, width = stack.pop()
            elif op == b"w":
                width = float(operands[0])
            elif op == b"cm":
                ctm = multiply(tuple(map(float, operands)), ctm)
                if clip is not None and card is None and quarter_turns(ctm) is not None:
                    card = {"depth": len(stack), "art": clip, "ctm": ctm}
                clip = None
            elif op == b"re":
                x, y, w, h = map(float, operands)
                path_rect = (x, y, x + w, y + h)
            elif op == b"m":
                point = transform(ctm, *map(float, operands))
            elif op == b"l":
                end = transform(ctm, *map(float, operands))
                segments.append((*point, *end))
                point = end
            elif op in (b"c", b"v", b"y"):
                point = transform(ctm, *map(float, operands[-2:]))
            elif op in (b"W", b"W*"):
                if path_rect is None:
                    pass  # a curved clip inside a face
                elif card is None:
                    clip = box(ctm, *path_rect)
                elif card["depth"] == len(stack) and "box" not in card:
                    card["box"], card["form"] = path_rect, None  # an in-place face's bleed box
            elif op in (b"S", b"s", b"n", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"):
                if op in (b"S", b"s") and card is None:
                    strokes += [Stroke(*s, width) for s in segments]
                path_rect, segments = None, []
            elif op == b"Do" and card is not None and card["depth"] == len(stack) and "box" not in card:
                name = str(operands[0])
                card["box"] = tuple(float(v) for v in xobjects[name].get_object()["/BBox"])
                card["form"] = name
        return found, strokes

    @staticmethod
    def _placement(card: dict) -> Placement:
        x0, y0, x1, y1 = card["box"]  # the bleed box, centred on the trim at (0, 0)
        trim = box(card["ctm"], 0, 0, x0 + x1, y0 + y1)
        return Placement(
            card["form"],
            trim[0],
            trim[1],
            trim[2] - trim[0],
            trim[3] - trim[1],
            card["art"],
            quarter_turns(card["ctm"]),
        )

    @cached_property
    def plumber(self):
        return pdfplumber.open(str(self.path))

    def lines(self, page: int):
        if page not in self._lines:
            self._lines[page] = [(l["x0"], l["y0"], l["x1"], l["y1"]) for l in self.plumber.pages[page].lines]
        return self._lines[page]

    def chars(self, page: int):
        """Characters with PDF-style coordinates (origin bottom-left) and the quarter turns of
        their baseline."""
        if page not in self._chars:
            p = self.plumber.pages[page]
            self._chars[page] = [
                dict(
                    c,
                    y0=p.height - c["bottom"],
                    y1=p.height - c["top"],
                    turns=round(math.degrees(math.atan2(c["matrix"][1], c["matrix"][0])) / 90) % 4,
                )
                for c in p.chars
            ]
        return self._chars[page]

    def chars_on(self, page: int, p: Placement) -> list[dict]:
        """The characters on card p, their bounds and size in the card's upright frame (origin at
        its trim's bottom-left), as if it had been drawn unturned."""
        out = []
        for c in self.chars(page):
            cx, cy = (c["x0"] + c["x1"]) / 2, (c["y0"] + c["y1"]) / 2
            if p.x <= cx <= p.x + p.w and p.y <= cy <= p.y + p.h:
                x0, y0, x1, y1 = p.upright((c["x0"], c["y0"], c["x1"], c["y1"]))
                out.append(dict(c, x0=x0, y0=y0, x1=x1, y1=y1, size=y1 - y0))  # pdfminer's size: upright height
        return out

    def text(self, page: int) -> str:
        """The page's text in every orientation (side bands are turned 90 degrees), spaces normalised."""
        if not self._texts:
            # pdfium's reading, not pypdf's: the same words in the same order (one sign apart on
            # one page of three sets) a hundred times faster, as pypdf parses a form again each
            # time a card places it (seconds for a set)
            document = pypdfium2.PdfDocument(str(self.path))
            try:
                self._texts = [" ".join(each.get_textpage().get_text_range().split()) for each in document]
            finally:
                document.close()
        return self._texts[page]

    def words(self, page: int, **options) -> list[dict]:
        """pdfplumber's words on the page (top-down coordinates), with its extract_words options."""
        key = (page, repr(sorted(options.items())))
        if key not in self._words:
            self._words[key] = self.plumber.pages[page].extract_words(**options)
        return self._words[key]

    def text_in(self, page: int, rect) -> str:
        """The text inside rect, read line by line in the direction most of its characters run."""
        x0, y0, x1, y1 = rect
        chars = [c for c in self.chars(page) if x0 <= c["x0"] and c["x1"] <= x1 and y0 <= c["y0"] and c["y1"] <= y1]
        if not chars:
            return ""
        turns = max(range(4), key=lambda t: sum(c["turns"] == t for c in chars))
        upright = [(turn((c["x0"], c["y0"], c["x1"], c["y1"]), -turns), c["text"]) for c in chars]
        lines: dict[int, list] = {}
        for bounds, text in upright:
            lines.setdefault(round(bounds[1]), []).append((bounds[0], text))
        # a wrapped line ends where a word did: join lines with a space
        return " ".join("".join(t for _, t in sorted(lines[y])) for y in sorted(lines, reverse=True))
