"""The floor for bench_deck.py: the same 270 poker cards, 9-up on US Letter, drawn by a bare
reportlab script. Plain reportlab (and PyYAML to read the same input file); nothing from pnp.

Per card it draws what the `sp-magic` template draws: the night background, the rounded
parchment panel, the banner with the type word, the title, the ring behind the art and an
art icon made of a few vector paths, and the effect wrapped with reportlab's simpleSplit into
centred lines, followed by a small inline icon. Per page: crop marks, a scale bar and a label.
Same fonts as the pipeline embeds (the very TrueType files: Noto Sans regular, bold and italic for
the body, EB Garamond SemiBold for the title, embedded and subset), same page compression, and
reportlab's C accelerator (rl_accel, which pyproject installs for both sides) for the number
formatting and string measuring a bare script spends its time in.

The font files come from the benchmark, which can ask pnp where they are (it instances them from
the font packages if need be): the environment variable SPELLPRESS_BENCH_FONTS holds a JSON object
of style -> path, for the styles in STYLES ("regular", "bold", "italic", "display"). Any script that
imports this one calls register_fonts(paths) before measuring text with it (effect_lines).

    SPELLPRESS_BENCH_FONTS='{"regular": ".../NotoSans-2.15.ttf", ...}' \\
    python bench/floor_deck.py CARDS.yaml OUT.pdf     # prints a JSON line of timings
    python bench/floor_deck.py CARDS.yaml OUT.pdf LAYOUT.json   # the pipeline's grid, bleed and backs
                                                                # (bench_user.py writes LAYOUT.json)
"""

from __future__ import annotations

import json
import os
import sys
import time
from contextlib import contextmanager

_T0 = time.perf_counter()

from pathlib import Path  # noqa: E402

import yaml  # noqa: E402
from measure import peak_rss_kib  # noqa: E402  (bench/ is the script folder)
from reportlab.lib.colors import HexColor, black  # noqa: E402
from reportlab.lib.utils import simpleSplit  # noqa: E402
from reportlab.pdfbase import pdfmetrics  # noqa: E402
from reportlab.pdfbase.ttfonts import TTFont  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402

_T1 = time.perf_counter()

MM = 72 / 25.4
INCH = 72.0
PAGE_W, PAGE_H = 8.5 * INCH, 11 * INCH  # US Letter, portrait
CARD_W, CARD_H = 63.5 * MM, 88.9 * MM  # poker card, no bleed
COLS, ROWS = 3, 3
# templates/page.yaml: margin, crop mark length and offset, info band, info text size
MARGIN, MARK_LEN, MARK_OFF, INFO_BAND, INFO_SIZE = 5 * MM, 2 * MM, 0.3 * MM, 4.5 * MM, 6.5

NIGHT, PARCHMENT, GOLD, BANNER = HexColor("#33245a"), HexColor("#fbf5e6"), HexColor("#c99a2e"), HexColor("#6a4bb0")
INK, WHITE = HexColor("#1f1a17"), HexColor("#ffffff")
FLAME, FLAME_EDGE, FLAME_CORE = HexColor("#d9480f"), HexColor("#772708"), HexColor("#ffd43b")
ART, ART_EDGE = HexColor("#7048e8"), HexColor("#3d277f")

# The floor's names for the pipeline's font files (passed in, see the module's docstring).
FONTS_ENV = "SPELLPRESS_BENCH_FONTS"
STYLES = ("regular", "bold", "italic", "display")
REGULAR, BOLD, ITALIC, DISPLAY = (f"Floor-{style}" for style in STYLES)
_EXTENT: dict[str, tuple[float, float]] = {}  # registered name -> (ascent, descent) per point of size


def font_files() -> dict[str, str]:
    """The font files given in SPELLPRESS_BENCH_FONTS, style -> path."""
    given = os.environ.get(FONTS_ENV)
    if not given:
        raise SystemExit(f"floor_deck.py: set {FONTS_ENV} to a JSON object of style -> TTF path for {STYLES}")
    return json.loads(given)


def register_fonts(paths: dict[str, str]) -> None:
    """Register the body and display faces under the floor's names, once; also keep each face's
    ascent and descent (the hhea values reportlab reads, as the pipeline uses) for vertical centring."""
    for style in STYLES:
        name = f"Floor-{style}"
        if name not in _EXTENT:
            pdfmetrics.registerFont(TTFont(name, paths[style]))
            face = pdfmetrics.getFont(name).face
            _EXTENT[name] = (face.ascent / 1000, -face.descent / 1000)


def cell_origins() -> list[tuple[float, float]]:
    """Bottom-left of each card's trim, row by row from the top-left: the grid centred on the page."""
    x0 = (PAGE_W - COLS * CARD_W) / 2
    top = PAGE_H - (PAGE_H - ROWS * CARD_H) / 2
    return [(x0 + c * CARD_W, top - (r + 1) * CARD_H) for r in range(ROWS) for c in range(COLS)]


def box(x_mm: float, y_mm: float, w_mm: float, h_mm: float) -> tuple[float, float, float, float]:
    """A box measured from the trim's top-left in mm, as x, y, w, h in points from the bottom-left."""
    return x_mm * MM, CARD_H - (y_mm + h_mm) * MM, w_mm * MM, h_mm * MM


PANEL, BANNER_BOX, NAME_BOX = box(3.5, 3.5, 56.5, 81.9), box(10, 6.5, 43.5, 7), box(7, 16, 49.5, 13)
RING, ART_BOX, EFFECT_BOX = box(18.75, 30.5, 26, 26), box(22.75, 34.5, 18, 18), box(7, 59, 49.5, 17.5)


def middle_baseline(b, font: str, size: float) -> float:
    """Baseline that centres one line of `size` vertically in box b, by the font's ascent and descent."""
    x, y, w, h = b
    ascent, descent = _EXTENT[font]
    return y + (h - (ascent + descent) * size) / 2 + descent * size


@contextmanager
def unit_square(c, x: float, y: float, s: float):
    """Draws in an s-point square at (x, y) measured in its side (0..1, y up), with round joins,
    as the pipeline's icons are drawn; the canvas's state is restored after."""
    c.saveState()
    c.translate(x, y)
    c.scale(s, s)
    c.setLineJoin(1)
    yield
    c.restoreState()


def flame(c, x: float, y: float, s: float) -> None:
    """A small two-tone flame in an s-point square: fill, core, then outline (three paths), the inline icon."""
    with unit_square(c, x, y, s):
        c.setLineWidth(0.06)
        p = c.beginPath()
        p.moveTo(0.5, 0.05)
        p.curveTo(0.75, 0.05, 0.88, 0.22, 0.86, 0.44)
        p.curveTo(0.85, 0.62, 0.70, 0.72, 0.66, 0.96)
        p.curveTo(0.50, 0.76, 0.30, 0.74, 0.26, 0.80)
        p.curveTo(0.28, 0.64, 0.14, 0.58, 0.14, 0.40)
        p.curveTo(0.14, 0.20, 0.27, 0.05, 0.5, 0.05)
        p.close()
        c.setFillColor(FLAME)
        c.drawPath(p, fill=1, stroke=0)
        q = c.beginPath()
        q.moveTo(0.5, 0.14)
        q.curveTo(0.64, 0.14, 0.72, 0.24, 0.70, 0.37)
        q.curveTo(0.60, 0.54, 0.40, 0.50, 0.32, 0.36)
        q.curveTo(0.32, 0.22, 0.40, 0.14, 0.5, 0.14)
        q.close()
        c.setFillColor(FLAME_CORE)
        c.drawPath(q, fill=1, stroke=0)
        c.setStrokeColor(FLAME_EDGE)
        c.drawPath(p, fill=0, stroke=1)


def art_icon(c, x: float, y: float, s: float) -> None:
    """The card's art: a wand and three sparkles (four paths), like the pipeline's art icons."""
    with unit_square(c, x, y, s):
        c.setLineCap(1)
        wand = c.beginPath()
        wand.moveTo(0.15, 0.15)
        wand.lineTo(0.58, 0.58)
        c.setStrokeColor(ART_EDGE)
        c.setLineWidth(0.09)
        c.drawPath(wand, stroke=1, fill=0)
        c.setFillColor(ART)
        c.setLineWidth(0.06)
        for cx, cy, r in ((0.66, 0.66, 0.29), (0.24, 0.78, 0.13), (0.84, 0.22, 0.10)):
            q = r * 0.14
            p = c.beginPath()
            p.moveTo(cx, cy + r)
            for (kx, ky), (tx, ty) in (((q, q), (r, 0)), ((q, -q), (0, -r)), ((-q, -q), (-r, 0)), ((-q, q), (0, r))):
                p.curveTo(cx + kx, cy + ky, cx + kx, cy + ky, cx + tx, cy + ty)
            p.close()
            c.drawPath(p, fill=1, stroke=1)


TYPE_SIZE, NAME_SIZE, EFFECT_SIZE = 8.0, 14.0, 9.0  # templates/spells-and-potions/sp-magic.yaml
ICON_SCALE, ICON_BEARING = 0.85, 0.12  # an inline icon: a square of 0.85 x size, advancing 1.12 x that
# Stands in for an inline icon while wrapping: in Noto Sans "$" (572) and "}" (380) add up to 952
# thousandths of the size, exactly the icon's advance (0.85 x 1.12 = 0.952), at every size.
ICON = "$}"


def effect_lines(effect: str) -> list[str]:
    """The effect wrapped to its box; an inline :icon: stands as ICON, which is as wide as the icon."""
    text = " ".join(ICON if w.startswith(":") and w.endswith(":") else w for w in effect.split())
    return simpleSplit(text, REGULAR, EFFECT_SIZE, EFFECT_BOX[2])


def draw_card(c, card: dict) -> None:
    c.setFillColor(NIGHT)
    c.rect(0, 0, CARD_W, CARD_H, stroke=0, fill=1)
    c.saveState()
    c.setFillColor(PARCHMENT)
    c.setStrokeColor(GOLD)
    c.setLineWidth(1)
    c.roundRect(*PANEL, 3 * MM, stroke=1, fill=1)
    c.restoreState()
    c.saveState()
    c.setFillColor(BANNER)
    c.roundRect(*BANNER_BOX, 1.5 * MM, stroke=0, fill=1)
    c.restoreState()
    c.setFillColor(WHITE)
    c.setFont(BOLD, TYPE_SIZE)
    c.drawCentredString(
        BANNER_BOX[0] + BANNER_BOX[2] / 2, middle_baseline(BANNER_BOX, BOLD, TYPE_SIZE), card["type"].upper()
    )
    c.setFillColor(INK)
    c.setFont(DISPLAY, NAME_SIZE)
    c.drawCentredString(NAME_BOX[0] + NAME_BOX[2] / 2, middle_baseline(NAME_BOX, DISPLAY, NAME_SIZE), card["name"])
    c.saveState()
    c.setFillColor(WHITE)
    c.setStrokeColor(GOLD)
    c.setLineWidth(0.8)
    x, y, w, h = RING
    c.ellipse(x, y, x + w, y + h, stroke=1, fill=1)
    c.restoreState()
    art_icon(c, ART_BOX[0], ART_BOX[1], ART_BOX[2])

    # The effect: wrapped with simpleSplit, the inline icon standing in as ICON, of exactly its
    # advance; the block centred in the box by the font's ascent and descent, lines centred.
    size, leading, icon = EFFECT_SIZE, EFFECT_SIZE * 1.2, EFFECT_SIZE * ICON_SCALE
    x, y, w, h = EFFECT_BOX
    lines = effect_lines(card["effect"])
    ascent, descent = _EXTENT[REGULAR]
    block = (ascent + descent) * size + (len(lines) - 1) * leading
    baseline = y + h - (h - block) / 2 - ascent * size
    c.setFillColor(INK)
    c.setFont(REGULAR, size)
    for line in lines:
        left = x + (w - pdfmetrics.stringWidth(line, REGULAR, size)) / 2
        if ICON in line:
            before, after = line.split(ICON, 1)
            c.drawString(left, baseline, before)
            at = left + pdfmetrics.stringWidth(before, REGULAR, size)
            flame(c, at + ICON_BEARING / 2 * icon, baseline, icon)
            if after:
                c.drawString(at + (1 + ICON_BEARING) * icon, baseline, after)
        else:
            c.drawString(left, baseline, line)
        baseline -= leading


def draw_page_marks(c, cells: list, label: str) -> None:
    """Crop marks beyond the grid, a 50 mm scale bar on the left band and the page label on the right."""
    xs = sorted({round(x, 3) for x, _ in cells} | {round(x + CARD_W, 3) for x, _ in cells})
    ys = sorted({round(y, 3) for _, y in cells} | {round(y + CARD_H, 3) for _, y in cells})
    gx0, gy0 = min(x for x, _ in cells), min(y for _, y in cells)
    gx1, gy1 = max(x for x, _ in cells) + CARD_W, max(y for _, y in cells) + CARD_H
    page_w, page_h = c._pagesize
    c.saveState()
    c.setStrokeColor(black)
    c.setLineWidth(0.3)
    for x in xs:
        c.line(x, gy1 + MARK_OFF, x, gy1 + MARK_OFF + MARK_LEN)
        c.line(x, gy0 - MARK_OFF, x, gy0 - MARK_OFF - MARK_LEN)
    for y in ys:
        c.line(gx0 - MARK_OFF, y, gx0 - MARK_OFF - MARK_LEN, y)
        c.line(gx1 + MARK_OFF, y, gx1 + MARK_OFF + MARK_LEN, y)
    c.restoreState()
    c.saveState()  # scale bars, reading up the left band
    c.translate(MARGIN + INFO_BAND, MARGIN)
    c.rotate(90)
    bar = INFO_BAND * 0.3
    c.setLineWidth(0.4)
    c.setFillColor(black)
    c.setFont(REGULAR, INFO_SIZE)
    x = 0.0
    for total, step, name in ((50 * MM, 10 * MM, "50 mm"), (2 * INCH, 0.5 * INCH, "2 in")):
        c.rect(x, 0, total, bar, stroke=1, fill=0)
        for i in range(0, int(round(total / step)), 2):
            c.rect(x + i * step, 0, step, bar, stroke=0, fill=1)
        c.drawString(x, bar + INFO_SIZE * 0.4, f"{name}  (actual size)")
        x += total + 6 * MM
    note = "Print at 100% / actual size: each bar must measure exactly what it says."
    if page_h - 2 * MARGIN - x > pdfmetrics.stringWidth(note, REGULAR, INFO_SIZE):
        c.drawString(x, max(bar / 2 - INFO_SIZE * 0.3, INFO_SIZE * _EXTENT[REGULAR][1]), note)
    c.restoreState()
    c.saveState()  # the label, reading up the right band
    c.translate(page_w - MARGIN, MARGIN)
    c.rotate(90)
    c.setFillColor(black)
    c.setFont(REGULAR, INFO_SIZE)
    c.drawCentredString((page_h - 2 * MARGIN) / 2, (INFO_BAND - INFO_SIZE) / 2, label)
    c.restoreState()


def draw_back(c, title: str) -> None:
    """The deck's back, drawn once as a form: the night field, a gold frame, the title and two icons."""
    c.setFillColor(NIGHT)
    c.rect(0, 0, CARD_W, CARD_H, stroke=0, fill=1)
    c.saveState()
    c.setStrokeColor(GOLD)
    c.setLineWidth(1)
    c.roundRect(*PANEL, 3 * MM, stroke=1, fill=0)
    c.restoreState()
    c.setFillColor(GOLD)
    c.setFont(BOLD, 9)
    c.drawCentredString(CARD_W / 2, CARD_H - 24 * MM, title)
    art_icon(c, ART_BOX[0], ART_BOX[1] + 10 * MM, ART_BOX[2])
    flame(c, CARD_W / 2 - 6 * MM, 14 * MM, 12 * MM)


def place(c, cell: list[float], bleed: float, draw) -> None:
    """A card at a pipeline cell [x, y, art_x, art_y, art_w, art_h]: clipped to its art box, its
    background running into the bleed, as the pipeline places it."""
    x, y, ax, ay, aw, ah = cell
    c.saveState()
    clip = c.beginPath()
    clip.rect(ax, ay, aw, ah)
    c.clipPath(clip, stroke=0, fill=0)
    c.translate(x, y)
    if bleed:
        c.setFillColor(NIGHT)
        c.rect(-bleed, -bleed, CARD_W + 2 * bleed, CARD_H + 2 * bleed, stroke=0, fill=1)
    draw()
    c.restoreState()


def build(
    cards_yaml: Path, out: Path, fonts: dict[str, str], phases: dict[str, float], layout: dict | None = None
) -> int:
    """Without `layout`: 9-up, no bleed, no backs. With it (the pipeline's grid, from the benchmark):
    its page size, cells, bleed, and a back page after each front page when it gives back cells."""
    t = time.perf_counter()
    # the fastest safe loader PyYAML has here, as the pipeline uses
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    cards = yaml.load(cards_yaml.read_text(encoding="utf-8"), Loader=loader)["cards"]
    phases["load"] = time.perf_counter() - t
    t = time.perf_counter()
    register_fonts(fonts)
    c = Canvas(str(out), invariant=1, pageCompression=1, initialFontName=REGULAR)
    c.setTitle("Spellpress bench")
    c.setAuthor("Spellpress")
    if layout is None:
        page_size, bleed, backs = (PAGE_W, PAGE_H), 0.0, None
        cells = [[x, y, x, y, CARD_W, CARD_H] for x, y in cell_origins()]
    else:
        page_size, bleed, cells, backs = tuple(layout["page"]), layout["bleed"], layout["fronts"], layout["backs"]
    sheets = (len(cards) + len(cells) - 1) // len(cells)
    pages = sheets * (2 if backs else 1)
    number = 0
    for sheet in range(sheets):
        c.setPageSize(page_size)
        chunk = cards[sheet * len(cells) : (sheet + 1) * len(cells)]
        for cell, card in zip(cells, chunk, strict=False):
            place(c, cell, bleed, lambda card=card: draw_card(c, card))
        number += 1
        draw_page_marks(
            c, [cell[:2] for cell in cells[: len(chunk)]], f"Spellpress bench · fronts · page {number} of {pages}"
        )
        c.showPage()
        if backs:
            if sheet == 0:
                c.beginForm("back", -bleed, -bleed, CARD_W + bleed, CARD_H + bleed)
                draw_back(c, "SPELLS AND POTIONS")
                c.endForm()
            c.setPageSize(page_size)
            for cell in backs[: len(chunk)]:
                place(c, cell, 0.0, lambda: c.doForm("back"))
            number += 1
            draw_page_marks(
                c, [cell[:2] for cell in backs[: len(chunk)]], f"Spellpress bench · backs · page {number} of {pages}"
            )
            c.showPage()
    phases["draw"] = time.perf_counter() - t
    t = time.perf_counter()
    c.save()
    phases["save"] = time.perf_counter() - t
    return pages


def main() -> None:
    cards_yaml, out = Path(sys.argv[1]), Path(sys.argv[2])
    layout = json.loads(Path(sys.argv[3]).read_text()) if len(sys.argv) > 3 else None
    fonts = font_files()
    imports_kib = peak_rss_kib()
    phases: dict[str, float] = {}
    pages = build(cards_yaml, out, fonts, phases, layout)
    t2 = time.perf_counter()
    print(
        json.dumps(
            {
                "side": "floor",
                "import_s": _T1 - _T0,
                "work_s": t2 - _T1,
                "pages": pages,
                "phases": phases,
                "bytes": out.stat().st_size,
                "peak_kib": peak_rss_kib(),
                "imports_kib": imports_kib,
            }
        )
    )


if __name__ == "__main__":
    main()
