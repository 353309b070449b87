"""Print fidelity, measured from the PDF: trim sizes, centring, bleed, crop marks, safe zone,
duplex and folded backs, offsets, scale bars, fonts, determinism, ink saver."""

from __future__ import annotations

from collections import Counter

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from pnp.build import build
from pnp.imposition import Options
from pnp.paths import CONTENT
from tests.pdfcards import MM, BuiltPdf

CARD_W, CARD_H = 63.5 * MM, 88.9 * MM
TOL = 0.1 * MM
BLEED = 3 * MM
SAFE = 3 * MM


def card_pages(pdf: BuiltPdf) -> list[int]:
    return [i for i in range(len(pdf)) if pdf.placements(i)]


def grow(rect, by):
    x0, y0, x1, y1 = rect
    return (x0 - by, y0 - by, x1 + by, y1 + by)


def overlaps(segment, rect) -> bool:
    sx0, sy0, sx1, sy1 = (
        min(segment[0], segment[2]),
        min(segment[1], segment[3]),
        max(segment[0], segment[2]),
        max(segment[1], segment[3]),
    )
    x0, y0, x1, y1 = rect
    return sx0 < x1 and sx1 > x0 and sy0 < y1 and sy1 > y0


def flipped(p, page_w, page_h, edge):
    """Where the back of placement p must be so the sheet, turned over on `edge`, puts it behind p.

    Turning over on the long edge swaps left and right when the long edge is vertical (portrait)
    and top and bottom when it is horizontal (landscape); the short edge does the opposite."""
    landscape = page_w > page_h
    mirror_x = (edge == "long") != landscape
    return (page_w - p.x - p.w, p.y) if mirror_x else (p.x, page_h - p.y - p.h)


@pytest.fixture(params=["a4", "letter"])
def paper(request):
    return request.param


def test_every_card_is_trimmed_to_exact_size_and_its_crop_marks_agree(built, paper):
    pdf = BuiltPdf(built(paper=paper, backs="none"))
    for page in card_pages(pdf):
        marks = pdf.crop_marks(page)
        verticals = [l[0] for l in marks if abs(l[0] - l[2]) < 1e-6]
        horizontals = [l[1] for l in marks if abs(l[1] - l[3]) < 1e-6]
        for p in pdf.placements(page):
            assert abs(p.w - CARD_W) < TOL and abs(p.h - CARD_H) < TOL
            for x in (p.x, p.x + p.w):
                assert min(abs(v - x) for v in verticals) < 0.01 * MM, f"no crop mark at x={x / MM:.2f} mm"
            for y in (p.y, p.y + p.h):
                assert min(abs(h - y) for h in horizontals) < 0.01 * MM, f"no crop mark at y={y / MM:.2f} mm"
            x0, y0, x1, y1 = p.art
            assert p.x - x0 <= BLEED + 0.01 and x1 - p.x - p.w <= BLEED + 0.01, "art reaches at most the bleed"


def test_full_grids_are_centred_on_the_page(built, paper):
    pdf = BuiltPdf(built(paper=paper, backs="none"))
    full = max(len(pdf.placements(p)) for p in card_pages(pdf))
    for page in card_pages(pdf):
        cards = pdf.placements(page)
        if len(cards) < full:
            continue
        w, h = pdf.size(page)
        x0, x1 = min(c.x for c in cards), max(c.x + c.w for c in cards)
        y0, y1 = min(c.y for c in cards), max(c.y + c.h for c in cards)
        assert abs((x0 + x1) / 2 - w / 2) < TOL and abs((y0 + y1) / 2 - h / 2) < TOL


def test_crop_marks_stay_outside_every_cards_art(built, paper):
    pdf = BuiltPdf(built(paper=paper))
    for page in card_pages(pdf):
        cards = pdf.placements(page)
        arts = [grow(p.rect, BLEED) for p in cards]
        marks = pdf.crop_marks(page, cards)
        assert len(marks) >= 4 * 2, "a card page has crop marks"
        for mark in marks:
            assert not any(overlaps(mark, art) for art in arts), f"mark {mark} crosses a card on page {page + 1}"


def test_artwork_runs_into_the_bleed_and_stops_outside_it(built):
    pdf = BuiltPdf(built(paper="a4", backs="none"))
    scale = 4
    image = pdfium.PdfDocument(str(pdf.path))[0].render(scale=scale).to_pil().convert("RGB")
    page_h = pdf.size(0)[1]
    left = min(pdf.placements(0), key=lambda p: (p.x, -p.y))
    mid_y = left.y + left.h / 2

    def pixel(x, y):
        return image.getpixel((int(x * scale), int((page_h - y) * scale)))

    in_bleed = pixel(left.x - BLEED / 2, mid_y)
    inside_trim = pixel(left.x + 1 * MM, mid_y)
    beyond = pixel(left.x - BLEED - 1.5 * MM, mid_y)
    assert in_bleed == inside_trim != (255, 255, 255), "the card's background fills its bleed"
    assert beyond == (255, 255, 255), "nothing is printed past the bleed"


def test_text_on_cards_stays_inside_the_safe_zone(built, paper):
    pdf = BuiltPdf(built(paper=paper))
    for page in card_pages(pdf):
        cards = [p.rect for p in pdf.placements(page)]
        arts = [grow(r, BLEED) for r in cards]
        chars = pdf.chars(page)
        assert chars
        for c in chars:
            cx, cy = (c["x0"] + c["x1"]) / 2, (c["y0"] + c["y1"]) / 2
            home = [r for r in cards if r[0] <= cx <= r[2] and r[1] <= cy <= r[3]]
            if home:
                x0, y0, x1, y1 = grow(home[0], -SAFE)
                assert (
                    x0 - 0.01 <= c["x0"] and c["x1"] <= x1 + 0.01 and y0 - 0.01 <= c["y0"] and c["y1"] <= y1 + 0.01
                ), f"{c['text']!r} on page {page + 1} leaves the safe zone"
            else:  # page furniture (scale bars, label) keeps clear of the cards
                assert not any(overlaps((c["x0"], c["y0"], c["x1"], c["y1"]), a) for a in arts)


@pytest.mark.parametrize("edge", ["long", "short"])
def test_each_back_lands_behind_its_own_front(built, paper, edge):
    pdf = BuiltPdf(built(paper=paper, backs=f"duplex-{edge}"))
    pages = card_pages(pdf)
    assert len(pages) % 2 == 0
    for front, back in zip(pages[::2], pages[1::2], strict=True):
        assert back == front + 1, "a back page follows its front page"
        w, h = pdf.size(front)
        assert pdf.size(back) == (w, h)
        fronts, backs = pdf.placements(front), pdf.placements(back)
        expected = sorted((round(x, 2), round(y, 2)) for x, y in (flipped(p, w, h, edge) for p in fronts))
        assert sorted((round(b.x, 2), round(b.y, 2)) for b in backs) == expected
        assert len({b.form for b in backs}) == 1 and not {b.form for b in backs} & {f.form for f in fronts}


def test_offset_moves_only_the_backs(built):
    plain = BuiltPdf(built(paper="a4"))
    moved = BuiltPdf(built(paper="a4", offset=(1.0, -2.0)))
    assert [p.rect for p in moved.placements(0)] == [p.rect for p in plain.placements(0)]
    for a, b in zip(plain.placements(1), moved.placements(1), strict=True):
        assert abs(b.x - a.x - 1.0 * MM) < 0.01 and abs(b.y - a.y + 2.0 * MM) < 0.01


def test_fold_puts_each_back_beside_its_front_mirrored_across_the_fold_line(built, paper):
    pdf = BuiltPdf(built(paper=paper, backs="fold"))
    pages = card_pages(pdf)
    assert len(pages) > 0
    for page in pages:
        w, h = pdf.size(page)
        cards = pdf.placements(page)
        fronts = [c for c in cards if c.x < w / 2]
        backs = [c for c in cards if c.x >= w / 2]
        assert len(fronts) == len(backs) > 0
        assert all(c.x + c.w <= w / 2 for c in fronts) and all(c.x >= w / 2 for c in backs)
        assert sorted((round(w - f.x - f.w, 2), round(f.y, 2)) for f in fronts) == sorted(
            (round(b.x, 2), round(b.y, 2)) for b in backs
        )
        fold = [l for l in pdf.plumber.pages[page].lines if abs(l["x0"] - w / 2) < 0.01 and abs(l["x1"] - w / 2) < 0.01]
        assert fold and fold[0]["height"] > h / 2, "a fold line runs down the middle"


def test_every_page_has_scale_bars_and_names_itself(built, paper):
    pdf = BuiltPdf(built(paper=paper))
    for page in range(len(pdf)):
        sizes = [(r["width"], r["height"]) for r in pdf.plumber.pages[page].rects]
        longs = [max(s) for s in sizes]
        assert any(abs(l - 50 * MM) < 0.05 * MM for l in longs), f"no 50 mm bar on page {page + 1}"
        assert any(abs(l - 2 * 72) < 0.05 * MM for l in longs), f"no 2 in bar on page {page + 1}"
        text = pdf.text(page)
        assert "Print at 100% / actual size" in text
        assert "Spells and Potions" in text and f"page {page + 1} of {len(pdf)}" in text


def test_same_inputs_give_a_byte_identical_pdf(tmp_path):
    options = Options("letter", "duplex-long")
    build("spells-and-potions", [CONTENT], options, tmp_path / "a.pdf")
    build("spells-and-potions", [CONTENT], options, tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def all_fonts(reader: PdfReader):
    seen = {}

    def visit(resources):
        resources = resources.get_object() if resources is not None else {}
        for font in resources.get("/Font", {}).values():
            font = font.get_object()
            seen[str(font["/BaseFont"])] = font
        for xobject in resources.get("/XObject", {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                visit(xobject.get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return seen


def test_fonts_are_truetype_embedded_and_subset(built):
    fonts = all_fonts(PdfReader(str(built(paper="a4"))))
    assert len(fonts) >= 3  # regular, bold and italic are all used
    for name, font in fonts.items():
        assert font["/Subtype"] == "/TrueType", name
        assert "/FontFile2" in font["/FontDescriptor"].get_object(), f"{name} is not embedded"
        prefix, _, _ = name.lstrip("/").partition("+")
        assert len(prefix) == 6 and prefix.isupper(), f"{name} is not a subset"


def test_output_is_vector_and_a_repeated_face_is_stored_once(built):
    pdf = BuiltPdf(built(paper="a4"))
    images = sum(
        x.get_object()["/Subtype"] == "/Image"
        for page in pdf.reader.pages
        for x in page["/Resources"].get("/XObject", {}).values()
    )
    assert images == 0
    placed = [p for page in range(len(pdf)) for p in pdf.placements(page)]
    assert len(placed) == 2 * (40 + 12 + 4)  # every front and its back
    uses = Counter(p.form for p in placed if p.form)
    # each repeated face is one form: 5 magic cards printed twice, the reference card, 3 backs
    assert len(uses) == 5 + 1 + 3 and min(uses.values()) >= 2
    assert sum(1 for p in placed if p.form is None) == 40 + 2  # one-off faces drawn in place


def ink_coverage(path, page=0) -> float:
    histogram = pdfium.PdfDocument(str(path))[page].render(scale=1).to_pil().convert("L").histogram()
    return sum(histogram[:245]) / sum(histogram)


def test_ink_saver_drops_fills_but_keeps_the_words(built):
    normal, saver = BuiltPdf(built(paper="a4")), BuiltPdf(built(paper="a4", ink_saver=True))
    assert ink_coverage(saver.path) < 0.5 * ink_coverage(normal.path)
    card = saver.placements(0)[0]
    scale = 2
    image = pdfium.PdfDocument(str(saver.path))[0].render(scale=scale).to_pil().convert("RGB")
    bleed_point = (int((card.x - BLEED / 2) * scale), int((saver.size(0)[1] - card.y - card.h / 2) * scale))
    assert image.getpixel(bleed_point) == (255, 255, 255), "no full-bleed fill"
    assert saver.text(0) == normal.text(0)
