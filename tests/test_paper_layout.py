"""Paper and cutting, read back from the PDF: 9-up shared cuts by default and 8-up with gutters,
decks sharing sheets, everything printed for the person cutting kept inside the printer's margin,
full bleed where decks or suits meet across a gutter, tile sheets centred and unframed."""

from __future__ import annotations

import math

import pytest

from tests.support.pdfcards import MM, BuiltPdf

CARD_W, CARD_H = 63.5 * MM, 88.9 * MM
BLEED = 3 * MM
PRINTER_MARGIN = 5 * MM
TOL = 0.01 * MM
SUITS = ("FIRE", "WATER", "EARTH", "AIR")


@pytest.fixture(params=["a4", "letter"])
def paper(request):
    return request.param


def poker_fronts(pdf: BuiltPdf) -> list[int]:
    """Front pages (every card page but the backs) of poker-sized cards."""
    return [
        page
        for page in range(len(pdf))
        if pdf.placements(page)
        and "· backs" not in pdf.text(page)
        and all(abs(min(p.w, p.h) - CARD_W) < TOL for p in pdf.placements(page))
    ]


def neighbours(cards, along: int):
    """Pairs (a, b) of cards side by side: b beyond a along x (along=0) or y (along=1), overlapping across."""
    across = 1 - along
    for a in cards:
        for b in cards:
            if (
                b.rect[along] > a.rect[along] + TOL
                and min(a.rect[across + 2], b.rect[across + 2]) - max(a.rect[across], b.rect[across]) > 1 * MM
            ):
                nearest = min(
                    (c for c in cards if c.rect[along] > a.rect[along] + TOL),
                    key=lambda c: c.rect[along],
                )
                if abs(b.rect[along] - nearest.rect[along]) < TOL:
                    yield a, b


def test_poker_cards_go_nine_to_a_portrait_sheet_sharing_their_cut_lines(built_pdf, paper):
    pdf = built_pdf(paper=paper, backs="none")
    full = [page for page in poker_fronts(pdf) if len(pdf.placements(page)) == 9]
    assert full, "a full sheet holds 9 poker cards"
    for page in full:
        cards = pdf.placements(page)
        assert all(p.turns == 0 for p in cards), "upright on portrait paper"
        assert len({round(p.x, 2) for p in cards}) == 3 and len({round(p.y, 2) for p in cards}) == 3
        x0, y0 = min(p.x for p in cards), min(p.y for p in cards)
        x1, y1 = max(p.x + p.w for p in cards), max(p.y + p.h for p in cards)
        assert abs(x1 - x0 - 3 * CARD_W) < TOL and abs(y1 - y0 - 3 * CARD_H) < TOL, "no gutter: shared cuts"
        for p in cards:  # bleed only round the outside of the block
            for got, trim, outer in zip(p.art, p.rect, (x0, y0, x1, y1), strict=True):
                expected = BLEED if abs(trim - outer) < TOL else 0.0
                assert abs(abs(got - trim) - expected) < TOL, f"page {page + 1}: art {p.art} for trim {p.rect}"


def test_with_gutters_poker_cards_go_eight_to_a_sheet_each_with_bleed_all_round(built_pdf, paper):
    pdf = built_pdf(paper=paper, backs="none", gutters=True)
    pages = poker_fronts(pdf)
    assert max(len(pdf.placements(page)) for page in pages) == 8
    for page in pages:
        for p in pdf.placements(page):
            assert all(abs(got - trim) > 0.5 * MM for got, trim in zip(p.art, p.rect, strict=True))


def sheets_needed(pdf: BuiltPdf) -> tuple[int, int]:
    """(poker-card front pages, the fewest that hold every poker card at the fullest page's count)."""
    pages = poker_fronts(pdf)
    cards = sum(len(pdf.placements(page)) for page in pages)
    return len(pages), math.ceil(cards / max(len(pdf.placements(page)) for page in pages))


@pytest.mark.parametrize("game", ["spells-and-potions", "magic-spell"])
def test_decks_of_one_card_size_share_sheets_so_a_set_takes_the_fewest(built_pdf, paper, game):
    pdf = built_pdf(game=game, paper=paper, backs="none")
    used, fewest = sheets_needed(pdf)
    assert used == fewest
    if game == "spells-and-potions":
        assert any(" + " in pdf.text(page).split(" · ")[1] for page in poker_fronts(pdf)), "a sheet names its decks"


def furniture(pdf: BuiltPdf, page: int):
    """Everything printed outside the cards (crop marks, fold line, scale bars, label) as bounds."""
    cards = [p.rect for p in pdf.placements(page)]

    def on_card(x0, y0, x1, y1):
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        return any(r[0] - BLEED <= cx <= r[2] + BLEED and r[1] - BLEED <= cy <= r[3] + BLEED for r in cards)

    h = pdf.size(page)[1]
    found = [(min(s.x0, s.x1), min(s.y0, s.y1), max(s.x0, s.x1), max(s.y0, s.y1)) for s in pdf.strokes(page)]
    found += [(c["x0"], c["y0"], c["x1"], c["y1"]) for c in pdf.chars(page) if c["text"].strip()]
    found += [(r["x0"], h - r["bottom"], r["x1"], h - r["top"]) for r in pdf.plumber.pages[page].rects]
    found += [(l["x0"], h - l["bottom"], l["x1"], h - l["top"]) for l in pdf.plumber.pages[page].lines]
    return [b for b in found if not on_card(*b)]


@pytest.mark.parametrize("gutters", [False, True])
@pytest.mark.parametrize("backs", ["duplex-long", "fold"])
def test_every_mark_label_and_scale_bar_stays_inside_the_printers_margin(built_pdf, paper, gutters, backs):
    pdf = built_pdf(paper=paper, backs=backs, gutters=gutters)
    for page in range(len(pdf)):
        w, h = pdf.size(page)
        things = furniture(pdf, page)
        assert len(things) > 10, f"page {page + 1} has marks and words"
        for x0, y0, x1, y1 in things:
            nearest = min(x0, y0, w - x1, h - y1)
            assert nearest >= PRINTER_MARGIN - TOL, (
                f"page {page + 1}: something at {nearest / MM:.2f} mm from the edge, at {x0:.1f}, {y0:.1f} pt"
            )


def kind(pdf: BuiltPdf, page: int, card) -> tuple:
    """What a card is, from the PDF: the back printed behind it (its deck) and its suit, if any."""
    w, h = pdf.size(page)
    behind = {(round(b.x, 2), round(b.y, 2)): b.form for b in pdf.placements(page + 1)}
    back = behind[(round(w - card.x - card.w, 2), round(card.y, 2))]  # duplex-long: mirrored left to right
    words = "".join(c["text"] for c in pdf.chars_on(page, card))
    return back, next((suit for suit in SUITS if suit in words), None)


def test_with_gutters_cards_of_different_decks_or_suits_keep_their_full_bleed_where_they_meet(built_pdf, paper):
    pdf = built_pdf(paper=paper, gutters=True)
    met = 0
    for page in poker_fronts(pdf):
        cards = pdf.placements(page)
        kinds = {id(card): kind(pdf, page, card) for card in cards}
        for along in (0, 1):
            for a, b in neighbours(cards, along):
                if kinds[id(a)] == kinds[id(b)]:
                    continue
                met += 1
                assert a.art[along + 2] - a.rect[along + 2] >= BLEED - TOL, f"page {page + 1}: {kinds[id(a)]}"
                assert b.rect[along] - b.art[along] >= BLEED - TOL, f"page {page + 1}: {kinds[id(b)]}"
    assert met, "decks and suits meet somewhere on a shared sheet"


def tile_pages(pdf: BuiltPdf) -> list[int]:
    return [page for page in range(len(pdf)) if "· Ingredient tiles" in pdf.text(page)]  # by the page label


@pytest.mark.parametrize("gutters", [False, True])
def test_tile_sheets_are_centred_on_the_page(built_pdf, paper, gutters):
    pdf = built_pdf(game="magic-spell", paper=paper, gutters=gutters)
    pages = tile_pages(pdf)
    assert pages
    for page in pages:
        w, h = pdf.size(page)
        tiles = pdf.placements(page)
        left, right = min(t.x for t in tiles), w - max(t.x + t.w for t in tiles)
        bottom, top = min(t.y for t in tiles), h - max(t.y + t.h for t in tiles)
        assert abs(left - right) < 0.1 * MM and abs(top - bottom) < 0.1 * MM, f"page {page + 1}"


def test_tiles_carry_no_outline_near_the_cut(built_pdf):
    pdf = built_pdf(game="magic-spell", paper="a4")
    for page in tile_pages(pdf):
        tiles = pdf.placements(page)
        h = pdf.size(page)[1]
        objects = pdf.plumber.pages[page].objects
        strokes = [o for kind in ("rect", "curve", "line") for o in objects.get(kind, []) if o.get("stroke")]
        for tile in tiles:
            x0, y0, x1, y1 = tile.rect
            for o in strokes:
                bx0, by0, bx1, by1 = o["x0"], h - o["bottom"], o["x1"], h - o["top"]
                inside = x0 - TOL <= bx0 and bx1 <= x1 + TOL and y0 - TOL <= by0 and by1 <= y1 + TOL
                near_cut = min(bx0 - x0, by0 - y0, x1 - bx1, y1 - by1) < 2 * MM
                assert not (inside and near_cut), f"a stroke {o['x0']:.1f}, {o['top']:.1f} near a tile's cut"
