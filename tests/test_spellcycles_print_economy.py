"""Spellcycles' print economy, read back from the built PDF (issue 33): the small pieces share
sheets, what needs no back prints one-sided with no blank back behind it, and the setup page gives
the card-stock sheets, 100% and the die.

The issue: "5 crescents on a sheet of their own, 45 essence tokens and 30 small tokens on one sheet
each, all front and back: 15 card-stock sheets. Gang small pieces onto shared sheets, print
one-sided what needs no back, and give the card-stock count on the setup page; the setup page says
to print at 100% and that a six-sided die is needed, as the other games' pages do."
"""

from __future__ import annotations

import re

import pytest

from pnp.document import page_style
from pnp.imposition import band_gap
from tests.conftest import bundled
from tests.support.pdfcards import MM, PAGE
from tests.test_spellcycles_pieces import label_of, pages_of

GAME = "spellcycles"
SMALL = ("tokens-large", "tokens-medium", "tokens-small", "crescents", "essence")
ONE_SIDED = ("Moon crescents", "Essence", "Casting field", "Spell components (fold-up pyramids)")


@pytest.fixture(scope="module")
def game():
    return bundled(GAME)


def small_pieces(game) -> dict[str, tuple[str, int, float]]:
    """Each small piece's deck title -> (template, count, side in points), from the set."""
    return {
        c.title: (c.template, len(c.faces), game.templates[c.template].size.width)
        for c in game.components()
        if c.id in SMALL
    }


def fronts(pdf, titles) -> list[int]:
    return sorted({p for title in titles for p in pages_of(pdf, title, "fronts")})


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_small_pieces_share_sheets_each_at_its_count_and_size(built_pdf, game, paper):
    pdf = built_pdf(game=GAME, paper=paper, backs="duplex-long")
    pieces = small_pieces(game)
    sheets = fronts(pdf, pieces)
    # once a sheet each (five fronts, five backs); now they take two sheets and one back page
    assert len(sheets) == 2, [label_of(pdf, p) for p in sheets]
    backs = [p for title in pieces for p in pages_of(pdf, title, "backs")]
    assert sorted(set(backs)) == [sheets[0] + 1]
    found: dict[str, list] = {title: [] for title in pieces}
    gap = band_gap(page_style(PAGE), 3 * MM)  # the default bleed
    for page in sheets:
        placed = pdf.placements(page)
        bands = []
        for title, (_, _, side) in pieces.items():
            own = [p for p in placed if (p.w, p.h) == pytest.approx((side, side), abs=0.01)]
            found[title] += own
            if own:
                bands.append((min(p.y for p in own), max(p.y + p.h for p in own)))
                # shared cuts: neighbours in a row meet exactly, so one cut parts them
                xs = sorted({round(p.x, 2) for p in own})
                assert all(b - a == pytest.approx(side, abs=0.01) for a, b in zip(xs, xs[1:], strict=False))
        assert len(placed) == sum(len([p for p in v if p in placed]) for v in found.values()), "an unknown piece"
        # the bands stack with room for each one's bleed and crop marks between them
        bands.sort()
        for (_, top), (bottom, _) in zip(bands, bands[1:], strict=False):
            assert bottom - top >= gap - 0.01, f"bands {(bottom - top) / MM:.1f} mm apart"
        # every trim edge has its crop marks, and no mark crosses a piece
        marks = pdf.crop_marks(page)
        for p in placed:
            for x in (p.x, p.x + p.w):
                assert any(m.vertical and abs(m.x0 - x) < 0.01 for m in marks), f"no cut mark at x {x / MM:.1f} mm"
            for y in (p.y, p.y + p.h):
                assert any(m.horizontal and abs(m.y0 - y) < 0.01 for m in marks), f"no cut mark at y {y / MM:.1f} mm"
            for m in marks:
                across = p.x + 0.01 < max(m.x0, m.x1) and min(m.x0, m.x1) < p.x + p.w - 0.01
                assert not (across and p.y + 0.01 < max(m.y0, m.y1) and min(m.y0, m.y1) < p.y + p.h - 0.01)
    for title, (_, count, _) in pieces.items():
        assert len(found[title]) == count, title


def setup_numbers(text: str, pattern: str) -> list[int]:
    """The page numbers in the setup page's words where `pattern` has {pages}: '3–22, 24' -> [3..22, 24]."""
    flat = " ".join(text.split())
    match = re.search(pattern.replace("{pages}", r"([0-9–, ]*[0-9])"), flat)
    assert match, f"no {pattern!r} on the setup page: {flat[:400]}"
    numbers = []
    for part in match.group(1).split(","):
        lo, _, hi = part.strip().partition("–")
        numbers += range(int(lo), int(hi or lo) + 1)
    return numbers


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_one_sided_pieces_print_alone_with_no_blank_back(built_pdf, game, paper):
    """What has nothing on its back prints single-sided, as the setup page lists it; the rest double-sided."""
    pdf = built_pdf(game=GAME, paper=paper, backs="duplex-long")
    text = pdf.text(0)
    single = setup_numbers(text, "Pages {pages} single-sided")
    double = setup_numbers(text, "Pages {pages} double-sided")
    assert sorted(single + double) == list(range(1, len(pdf) + 1))
    blanks = [p + 1 for p in range(len(pdf)) if label_of(pdf, p)[1] == "blank back"]
    assert blanks == [2], "only the setup page keeps a blank back (it prints in the double-sided job)"
    for number in single:
        titles, side = label_of(pdf, number - 1)
        assert set(titles) <= set(ONE_SIDED) and "backs" not in side, (number, titles, side)
    for title in ONE_SIDED:
        assert set(pages_of(pdf, title)) <= {n - 1 for n in single}, title
    # the double-sided job alternates fronts and their backs (the setup page and its blank back first)
    sides = [label_of(pdf, n - 1)[1] for n in double]
    assert all(b.startswith(("backs", "blank back")) for b in sides[1::2]), sides


@pytest.mark.parametrize(("paper", "backs"), [("a4", "duplex-long"), ("letter", "duplex-short"), ("a4", "fold")])
def test_the_setup_page_names_card_stock_sheets_100_percent_and_the_die(built_pdf, game, paper, backs):
    """The card-stock count equals the sheets the plan puts on card stock: its pages less backs."""
    pdf = built_pdf(game=GAME, paper=paper, backs=backs)
    text = " ".join(pdf.text(0).split())
    card = setup_numbers(text, r"Card stock.*? sheets, pages {pages}")
    sheets = [n for n in card if not label_of(pdf, n - 1)[1].startswith(("backs", "blank back"))]
    (said,) = re.findall(r"Card stock.*?(\d+) sheets", text)
    assert int(said) == len(sheets)
    assert all(label_of(pdf, n - 1)[0] != ["Setup and printing guide"] for n in card)
    if (paper, backs) == ("a4", "duplex-long"):
        assert int(said) < 15, "the issue counted 15 card-stock sheets before the pieces shared them"
    assert "Print at 100% / actual size, never “fit to page”" in text
    # the rules' components: "A Knucklebone: A six-sided die."
    assert "A six-sided die serves as the knucklebone." in text
