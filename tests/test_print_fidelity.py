"""Print fidelity, measured from the PDF: trim sizes, centring, bleed, crop marks, safe zone,
duplex and folded backs, offsets, scale bars, fonts, determinism, ink saver."""

from __future__ import annotations

from collections import Counter

import pypdfium2 as pdfium
import pytest
import yaml
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnp.build import build
from pnp.imposition import Options
from pnp.paths import CONTENT
from tests.conftest import invoke, overlay
from tests.support.pdfcards import MM, BuiltPdf

CARD_W, CARD_H = 63.5 * MM, 88.9 * MM
TOL = 0.1 * MM
BLEED = 3 * MM
SAFE = 3 * MM


def card_pages(pdf: BuiltPdf) -> list[int]:
    pages = [i for i in range(len(pdf)) if pdf.placements(i)]
    assert pages, f"{pdf.path} has no cards"
    return pages


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
    Every sheet is portrait: its long edge is vertical, so turning over on it swaps left and right,
    and turning over on the short edge swaps top and bottom."""
    return (page_w - p.x - p.w, p.y) if edge == "long" else (p.x, page_h - p.y - p.h)


def upright_size(p) -> tuple[float, float]:
    return (p.w, p.h) if p.turns % 2 == 0 else (p.h, p.w)


@pytest.fixture(params=["a4", "letter"])
def paper(request):
    return request.param


def test_every_card_is_trimmed_to_exact_size_and_its_art_reaches_at_most_the_bleed(built_pdf, paper):
    pdf = built_pdf(paper=paper, backs="none")
    for page in card_pages(pdf):
        for p in pdf.placements(page):
            w, h = upright_size(p)
            assert abs(w - CARD_W) < TOL and abs(h - CARD_H) < TOL, f"a {w / MM:.2f} x {h / MM:.2f} mm card"
            x0, y0, x1, y1 = p.art
            e = 1e-3  # shared cuts: the art stops at the trim, as the PDF rounds it
            assert x0 <= p.x + e and y0 <= p.y + e and p.x + p.w <= x1 + e and p.y + p.h <= y1 + e, (
                "the art covers the trim"
            )
            assert all(abs(a - b) <= BLEED + 0.01 for a, b in zip(p.art, p.rect, strict=True)), "at most the bleed"


@pytest.mark.parametrize("gutters", [False, True])
@pytest.mark.parametrize("backs", ["duplex-long", "fold"])
def test_every_trim_edge_has_crop_marks_beyond_the_cards_on_both_sides(built_pdf, paper, backs, gutters):
    pdf = built_pdf(paper=paper, backs=backs, gutters=gutters)
    for page in card_pages(pdf):
        marks = pdf.crop_marks(page)
        for p in pdf.placements(page):
            for x in (p.x, p.x + p.w):
                on = [m for m in marks if m.vertical and abs(m.x0 - x) < 0.01 * MM]
                above, below = (any(f(m) for m in on) for f in (lambda m: m.y0 > p.y + p.h, lambda m: m.y0 < p.y))
                assert above and below, f"no crop mark along x={x / MM:.2f} mm on page {page + 1}"
            for y in (p.y, p.y + p.h):
                on = [m for m in marks if m.horizontal and abs(m.y0 - y) < 0.01 * MM]
                right, left = (any(f(m) for m in on) for f in (lambda m: m.x0 > p.x + p.w, lambda m: m.x0 < p.x))
                assert right and left, f"no crop mark along y={y / MM:.2f} mm on page {page + 1}"


def test_full_grids_are_centred_on_the_page(built_pdf, paper):
    pdf = built_pdf(paper=paper, backs="none")
    full = max(len(pdf.placements(p)) for p in card_pages(pdf))
    for page in card_pages(pdf):
        cards = pdf.placements(page)
        if len(cards) < full:
            continue
        w, h = pdf.size(page)
        x0, x1 = min(c.x for c in cards), max(c.x + c.w for c in cards)
        y0, y1 = min(c.y for c in cards), max(c.y + c.h for c in cards)
        assert abs((x0 + x1) / 2 - w / 2) < TOL and abs((y0 + y1) / 2 - h / 2) < TOL


@pytest.mark.parametrize("gutters", [False, True])
def test_crop_marks_never_cross_a_card_and_with_gutters_stay_outside_its_art(built_pdf, paper, gutters):
    """Shared cuts lay the marks over the block's outer bleed (it is cut away); gutters keep
    them beyond the art."""
    pdf = built_pdf(paper=paper, gutters=gutters)
    for page in card_pages(pdf):
        keep_out = [grow(p.rect, BLEED if gutters else 0.0) for p in pdf.placements(page)]
        marks = pdf.crop_marks(page)
        assert len(marks) >= 4 * 2, "a card page has crop marks"
        for m in marks:
            segment = (m.x0, m.y0, m.x1, m.y1)
            assert not any(overlaps(segment, r) for r in keep_out), f"mark {segment} crosses a card on page {page + 1}"


def test_artwork_runs_into_the_bleed_and_stops_outside_it(built_pdf):
    pdf = built_pdf(paper="a4", backs="none")
    scale = 4
    page = first_cards(pdf)
    image = pdfium.PdfDocument(str(pdf.path))[page].render(scale=scale).to_pil().convert("RGB")
    page_h = pdf.size(page)[1]
    left = min(pdf.placements(page), key=lambda p: (p.x, -p.y))
    mid_y = left.y + left.h / 2

    def pixel(x, y):
        return image.getpixel((int(x * scale), int((page_h - y) * scale)))

    in_bleed = pixel(left.x - BLEED / 2, mid_y)
    inside_trim = pixel(left.x + 1 * MM, mid_y)
    beyond = pixel(left.x - BLEED - 1.5 * MM, mid_y)
    assert in_bleed == inside_trim != (255, 255, 255), "the card's background fills its bleed"
    assert beyond == (255, 255, 255), "nothing is printed past the bleed"


def test_text_on_cards_stays_inside_the_safe_zone(built_pdf, paper):
    pdf = built_pdf(paper=paper)
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


@pytest.mark.parametrize("game", ["spells-and-potions", "magic-spell"])
def test_every_page_is_portrait_and_unrotated(built_pdf, paper, game):
    pdf = built_pdf(game=game, paper=paper)
    for page in range(len(pdf)):
        w, h = pdf.size(page)
        assert w < h, f"page {page + 1} is {w:.1f} x {h:.1f} pt"
        # reportlab writes /Rotate 0 on every page: no turn, as if it were absent
        assert pdf.reader.pages[page].get("/Rotate", 0) == 0, f"page {page + 1} asks the viewer to turn it"


@pytest.mark.parametrize("gutters", [False, True])
@pytest.mark.parametrize("edge", ["long", "short"])
def test_each_back_lands_behind_its_own_front(built_pdf, paper, edge, gutters):
    pdf = built_pdf(paper=paper, backs=f"duplex-{edge}", gutters=gutters)
    pages = card_pages(pdf)
    assert len(pages) % 2 == 0
    for front, back in zip(pages[::2], pages[1::2], strict=True):
        assert back == front + 1, "a back page follows its front page"
        w, h = pdf.size(front)
        assert pdf.size(back) == (w, h)
        fronts, backs = pdf.placements(front), pdf.placements(back)
        expected = sorted((round(x, 2), round(y, 2)) for x, y in (flipped(p, w, h, edge) for p in fronts))
        assert sorted((round(b.x, 2), round(b.y, 2)) for b in backs) == expected
        assert not {b.form for b in backs} & {f.form for f in fronts}
        # decks sharing a sheet: each deck's back behind its own cards, which fill the cells in turn
        behind = {(round(b.x, 2), round(b.y, 2)): b.form for b in backs}
        # the layout's reading order: a layout turned onto the paper has its top at the paper's left
        in_order = sorted(
            fronts, key=lambda p: (round(p.x, 2), round(p.y, 2)) if p.turns % 2 else (-round(p.y, 2), round(p.x, 2))
        )
        forms = [behind[tuple(round(v, 2) for v in flipped(p, w, h, edge))] for p in in_order]
        runs = [form for i, form in enumerate(forms) if i == 0 or form != forms[i - 1]]
        titles = pdf.text(front).split(" · ")[1].split(" + ")
        assert len(runs) == len(set(runs)) == len(titles), f"page {front + 1}: backs {forms} for {titles}"


def moved_backs(built_pdf, game, paper, turns, gutters, offset=(2.0, 1.0)):
    """(dx, dy) in mm of every back between the zero-offset build and one with `offset`, in the
    paper's portrait frame (the calibration sheet's), for the pages whose cards are `turns` turned."""
    plain = built_pdf(game=game, paper=paper, gutters=gutters)
    moved = built_pdf(game=game, paper=paper, offset=offset, gutters=gutters)
    shifts, fronts = [], 0
    assert len(plain) == len(moved)
    for page in range(len(plain)):
        before, after = plain.placements(page), moved.placements(page)
        assert len(before) == len(after)
        if not before or before[0].turns != turns:
            continue
        pairs = list(zip(before, after, strict=True))
        if "· backs" in plain.text(page):
            shifts += [((b.x - a.x) / MM, (b.y - a.y) / MM) for a, b in pairs]
            assert all(abs(b.w - a.w) + abs(b.h - a.h) < 1e-6 and b.turns == a.turns for a, b in pairs)
        else:
            fronts += 1
            assert all(max(abs(u - v) for u, v in zip(a.rect, b.rect, strict=True)) < 1e-6 for a, b in pairs)
    assert fronts and shifts, f"no {turns}-turned cards in {game}"
    return shifts


@pytest.mark.parametrize(
    ("game", "turns", "gutters"),
    # poker cards 9-up stand on the paper, 8-up (with gutters) lie across it
    [("spells-and-potions", 0, False), ("spells-and-potions", 1, True), ("magic-spell", 0, False)],
)
def test_an_offset_moves_every_back_the_same_way_on_the_paper(built_pdf, paper, game, turns, gutters):
    for dx, dy in moved_backs(built_pdf, game, paper, turns, gutters):
        assert abs(dx - 2.0) < 0.01 and abs(dy - 1.0) < 0.01, f"a back moved {dx:.3f}, {dy:.3f} mm"


@pytest.mark.parametrize("gutters", [False, True])
def test_fold_puts_each_back_beside_its_front_mirrored_across_the_fold_line(built_pdf, paper, gutters):
    pdf = built_pdf(paper=paper, backs="fold", gutters=gutters)
    pages = card_pages(pdf)
    for page in pages:
        w, h = pdf.size(page)
        folds = [s for s in pdf.strokes(page) if s.length > min(w, h) / 2 and (s.vertical or s.horizontal)]
        assert len(folds) == 1, "one fold line"
        fold = folds[0]
        # across the paper's width or down its length: mirror in whichever axis the line crosses
        axis = 0 if fold.vertical else 1
        at = fold.x0 if fold.vertical else fold.y0
        assert abs(at - (w if fold.vertical else h) / 2) < 0.01, "the fold line runs through the middle"
        cards = pdf.placements(page)
        lo = [c for c in cards if c.rect[axis + 2] <= at + 0.01]
        hi = [c for c in cards if c.rect[axis] >= at - 0.01]
        assert len(lo) == len(hi) > 0 and len(lo) + len(hi) == len(cards), "fronts on one side, backs on the other"

        def mirrored(c):
            r = list(c.rect)
            r[axis], r[axis + 2] = 2 * at - r[axis + 2], 2 * at - r[axis]
            return tuple(round(v, 2) for v in r)

        assert sorted(mirrored(c) for c in lo) == sorted(tuple(round(v, 2) for v in c.rect) for c in hi)
        assert len({c.form for c in hi}) == 1, "the far side (right, or top when turned) holds the backs"


def test_every_page_has_scale_bars_and_names_itself(built_pdf, paper):
    pdf = built_pdf(paper=paper)
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


def test_output_is_vector_and_a_repeated_face_is_stored_once(built_pdf):
    pdf = built_pdf(paper="a4")
    images = sum(
        x.get_object()["/Subtype"] == "/Image"
        for page in pdf.reader.pages
        for x in page["/Resources"].get("/XObject", {}).values()
    )
    assert images == 0
    placed = [p for page in range(len(pdf)) for p in pdf.placements(page)]
    assert len(placed) == 2 * (40 + 12 + 4 + 4)  # every front and its back, trump markers included
    uses = Counter(p.form for p in placed if p.form)
    # each repeated face is one form: 5 magic cards printed twice, the reference card, 4 backs
    assert len(uses) == 5 + 1 + 4 and min(uses.values()) >= 2
    assert sum(1 for p in placed if p.form is None) == 40 + 2 + 4  # one-off faces drawn in place


def first_cards(pdf) -> int:
    """The first page with cards on it (the set's first page is its setup sheet)."""
    return next(page for page in range(len(pdf)) if pdf.placements(page))


def ink_coverage(path, page=0) -> float:
    histogram = pdfium.PdfDocument(str(path))[page].render(scale=1).to_pil().convert("L").histogram()
    return sum(histogram[:245]) / sum(histogram)


def test_ink_saver_drops_fills_but_keeps_the_words(built_pdf):
    normal, saver = built_pdf(paper="a4"), built_pdf(paper="a4", ink_saver=True)
    page = first_cards(saver)
    assert ink_coverage(saver.path, page) < 0.5 * ink_coverage(normal.path, page)
    card = saver.placements(page)[0]
    scale = 2
    image = pdfium.PdfDocument(str(saver.path))[page].render(scale=scale).to_pil().convert("RGB")
    bleed_point = (int((card.x - BLEED / 2) * scale), int((saver.size(page)[1] - card.y - card.h / 2) * scale))
    assert image.getpixel(bleed_point) == (255, 255, 255), "no full-bleed fill"
    assert saver.text(page) == normal.text(page)


def test_what_every_face_of_a_template_shares_is_drawn_once_and_placed_on_each(tmp_path):
    """A deck of distinct cards: each card is drawn in place, but its template's fixed regions
    (background, panel, banner, art ring) are one form each in the file, placed on every card."""
    cards = [{"name": f"Card {i}", "type": "spell", "count": 1, "effect": f"Effect number {i}."} for i in range(20)]
    root = overlay(
        tmp_path / "ov", "spells-and-potions", {"mine.yaml": yaml.safe_dump({"kind": "magic-cards", "cards": cards})}
    )
    out = tmp_path / "out"
    result = invoke(
        "build", "spells-and-potions", "--content", str(root), "--only", "magic", "--backs", "none", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    pdf = BuiltPdf(next(out.glob("*.pdf")))
    reader = pdf.reader
    forms = {
        str(name): xobject.get_object()
        for page in reader.pages
        for name, xobject in page["/Resources"].get_object().get("/XObject", {}).items()
    }
    assert len(forms) >= 2
    user_pages = [n for n in range(len(pdf)) if all(p.form is None for p in pdf.placements(n))]
    assert len(user_pages) >= 2  # the bundled cards come first; the user's 20 fill the later pages
    for page_number in user_pages:
        cards_here = len(pdf.placements(page_number))
        ops = ContentStream(reader.pages[page_number].get_contents(), reader).operations
        placed = Counter(str(operands[0]) for operands, op in ops if op == b"Do" and "icon" not in operands[0])
        # the two runs of sp-magic's fixed regions, background to banner and the art ring, on every card
        assert cards_here >= 4 and sorted(placed.values()) == [cards_here, cards_here], (page_number, placed)
    # one banner path in the whole file, though every card shows it: the panel and banner are
    # rounded rectangles (curves), drawn in a form and nowhere else
    page_curves = sum(
        1 for page in reader.pages for _, op in ContentStream(page.get_contents(), reader).operations if op == b"c"
    )
    assert page_curves < len(cards), "each card's panel and banner were drawn again"
