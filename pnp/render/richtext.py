"""Rich text set in a box: parsed by pnp.content.markup, measured, wrapped and shrunk to fit.

A word never breaks. Fitting tries the template's size
and steps down (binary search on a 0.25 pt grid) to its minimum; past that the text does not fit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from pnp.content.markup import Run, Word, parse
from pnp.render import fonts
from pnp.render.icons import icon_advance, stamp_icon

ICON_SCALE = 0.85  # an inline icon is a square this fraction of the font size, standing on the baseline
STEP = 0.25
PARAGRAPH_GAP = 0.45  # extra space between paragraphs, in lines


def run_width(run: Run, size: float) -> float:
    if run.icon:
        return icon_advance(run.text, size * ICON_SCALE)
    return fonts.string_width(run.text, run.style, size)


def word_width(word: Word, size: float) -> float:
    return sum(run_width(r, size) for r in word)


@dataclass(frozen=True)
class Line:
    runs: tuple[tuple[Run, float], ...]  # what to set, with each run's width: see `segments`
    width: float
    paragraph_start: bool

    @property
    def text(self) -> str:
        """The line as written, an icon as :name: (for messages and tests)."""
        return "".join(f":{run.text}:" if run.icon else run.text for run, _ in self.runs)


@dataclass(frozen=True)
class FittedText:
    size: float
    leading: float  # absolute, in points
    lines: tuple[Line, ...]
    style: str  # the region's base style, whose font's ascender and descender bound the block

    @property
    def height(self) -> float:
        return block_height(self.lines, self.style, self.size, self.leading)


def block_height(lines, style: str, size: float, leading: float) -> float:
    gaps = sum(1 for line in lines[1:] if line.paragraph_start)
    extent = fonts.ascent(style) + fonts.descent(style)
    return extent * size + (len(lines) - 1 + gaps * PARAGRAPH_GAP) * leading


def space_after(word: Word, size: float) -> float:
    """A space is set in the style of the run before it, so a line of one style is one string."""
    last = word[-1]
    return fonts.string_width(" ", "regular" if last.icon else last.style, size)


def wrap(paragraphs, width: float, size: float) -> tuple[Line, ...] | None:
    """Greedy line breaking; None when a single word is wider than the box."""
    lines: list[Line] = []
    for para in paragraphs:
        current: list[Word] = []
        current_width = 0.0
        first = True
        for word in para:
            w = word_width(word, size)
            if w > width:
                return None
            gap = space_after(current[-1], size) if current else 0.0
            if current and current_width + gap + w > width:
                lines.append(Line(segments(current, size), current_width, first))
                current, current_width, first, gap = [], 0.0, False, 0.0
            current_width += gap + w
            current.append(word)
        lines.append(Line(segments(current, size), current_width, first))
    return tuple(lines)


@lru_cache(maxsize=8192)
def fit(text: str, style: str, width: float, height: float, size: float, min_size: float, leading: float):
    """The largest size on the 0.25 pt grid from `size` down to `min_size` at which the text fits
    both the width and the height of the box; None when even `min_size` does not."""
    paragraphs = parse(text, style)

    def attempt(s: float) -> FittedText | None:
        lines = wrap(paragraphs, width, s)
        if lines is None or block_height(lines, style, s, s * leading) > height + 1e-6:
            return None
        return FittedText(s, s * leading, lines, style)

    best = attempt(size)
    if best is not None:
        return best
    # Binary search over step indexes: size - i * STEP fails at i = `fails` and fits at i = `fits`.
    fails, fits = 0, math.floor((size - min_size) / STEP + 1e-9)  # never below min_size
    best = attempt(size - fits * STEP)
    if best is None:
        return None
    while fits - fails > 1:
        mid = (fits + fails) // 2
        result = attempt(size - mid * STEP)
        if result is None:
            fails = mid
        else:
            best, fits = result, mid
    return best


def segments(words: list[Word], size: float) -> tuple[tuple[Run, float], ...]:
    """A line's words and spaces as runs to set, neighbouring runs of one style joined so a
    line of one style is one string; each with its width, measured once here."""
    pieces: list[Run] = []
    for i, word in enumerate(words):
        if i:
            last = words[i - 1][-1]
            pieces.append(Run(" ", "regular" if last.icon else last.style))
        pieces.extend(word)
    out: list[Run] = []
    for piece in pieces:
        if out and not piece.icon and not out[-1].icon and out[-1].style == piece.style:
            out[-1] = Run(out[-1].text + piece.text, piece.style)
        else:
            out.append(piece)
    return tuple((run, run_width(run, size)) for run in out)


def draw(canvas, fitted: FittedText, x: float, y: float, width: float, height: float, align: str, valign: str, colour):
    """Set fitted text in the box whose bottom-left is (x, y): every run in one text object, then
    the inline icons (a PDF text object cannot hold a drawing)."""
    size = fitted.size
    slack = height - fitted.height
    top = y + height - {"top": 0.0, "middle": slack / 2, "bottom": slack}[valign]
    baseline = top - fonts.ascent(fitted.style) * size
    text = canvas.beginText()
    text.setFillColor(colour)
    font, icons = None, []
    for i, line in enumerate(fitted.lines):
        if i:
            baseline -= fitted.leading * (1 + (PARAGRAPH_GAP if line.paragraph_start else 0))
        cursor = x + {"left": 0.0, "center": (width - line.width) / 2, "right": width - line.width}[align]
        for run, advance in line.runs:
            if run.icon:
                icon = size * ICON_SCALE
                icons.append((run.text, cursor + (advance - icon) / 2, baseline, icon))
            else:
                if run.style != font:
                    font = run.style
                    text.setFont(fonts.font_name(font), size)
                text.setTextOrigin(cursor, baseline)
                text.textOut(run.text)
            cursor += advance
    canvas.drawText(text)
    for name, left, bottom, icon in icons:
        stamp_icon(canvas, name, left, bottom, icon)
