"""The whole PDF printed in one go: in duplex, pages 2k-1 and 2k are the two sides of sheet k,
so every card's back must be on page 2k at the place the flip puts behind its front on page
2k-1, and a page with nothing behind it (the setup page, a sheet, one-sided cards) must be
followed by a blank page, never by the next front. A set with one-sided components (Spellcycles)
prints them as a single-sided job of their own, the pages its setup page names: the rest is the
whole-file job. Fold and none print single-sided: no page there is a back or a blank. Read back
from every game's PDF in every backs mode."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from pnp.components.kinds import Board, Deck
from pnp.gamedef import games
from pnp.imposition import BACK_MODES
from tests.conftest import bundled
from tests.support.pdfcards import BuiltPdf

TOL = 0.01  # points: a back printed where its front's mirror is, to far below a printer's step
BLANK = " · blank back · "  # the page label of a blank back (pnp.document.with_blank_backs)


@dataclass(frozen=True)
class Side:
    """One page as this test needs it: its cards' rectangles, and whether it is a blank back."""

    cards: tuple[tuple[float, float, float, float], ...]
    blank: bool


_read: dict[str, list[Side]] = {}  # PDF path -> its pages, each read once per session


def sides(pdf: BuiltPdf) -> list[Side]:
    """Every page's card rectangles; text is read only from pages without cards."""
    if str(pdf.path) not in _read:
        _read[str(pdf.path)] = [
            Side(
                tuple(sorted(p.rect for p in pdf.placements(page))),
                not pdf.placements(page) and BLANK in pdf.text(page),
            )
            for page in range(len(pdf))
        ]
    return _read[str(pdf.path)]


def flipped(rect, width: float, height: float, edge: str):
    """Where a card's back must lie so that turning the portrait sheet over on `edge` puts it
    behind the card: over the long edge left and right swap, over the short edge top and bottom."""
    x0, y0, x1, y1 = rect
    return (width - x1, y0, width - x0, y1) if edge == "long" else (x0, height - y1, x1, height - y0)


def matched(found, expected) -> bool:
    """Whether each expected rectangle is one found, one for one, within TOL."""
    left = list(found)
    for rect in expected:
        hit = next((r for r in left if all(abs(u - v) < TOL for u, v in zip(r, rect, strict=True))), None)
        if hit is None:
            return False
        left.remove(hit)
    return not left


def card_counts(game_id: str) -> tuple[int, int]:
    """(cards, cards with a back) in the game's whole set."""
    decks = [c for c in bundled(game_id).every_component() if isinstance(c, Deck)]
    return sum(len(d.faces) for d in decks), sum(len(d.faces) for d in decks if d.has_backs)


def board_pieces(pdf, game_id: str) -> int:
    """The pieces of the game's boards in this PDF: each a page of its own, one-sided, its label
    naming the board (and the piece, for a board in several); its blank back is no piece."""
    titles = {c.title for c in bundled(game_id).every_component() if isinstance(c, Board)}
    labelled = lambda text: BLANK not in text and any(f"· {title} · " in text for title in titles)  # noqa: E731
    return sum(labelled(pdf.text(page)) for page in range(len(pdf)))


def sheet_pairs(read: list[Side]) -> list[tuple[Side, Side]]:
    assert len(read) % 2 == 0, "an odd page count leaves the last front without its sheet's back"
    return list(zip(read[::2], read[1::2], strict=True))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("backs", BACK_MODES)
@pytest.mark.parametrize("game_id", list(games()))
def test_every_back_lands_behind_its_front_when_the_whole_pdf_is_printed(built_pdf, game_id, backs, paper):
    pdf = built_pdf(game=game_id, paper=paper, backs=backs)
    read = sides(pdf)
    cards, backed = card_counts(game_id)
    cards += board_pieces(pdf, game_id)  # placed like cards, printed one-sided
    placed = sum(len(side.cards) for side in read)
    words = bundled(game_id).content["setup"]
    if backs.startswith("duplex") and words.one_sided:
        alone = named_pages(pdf.text(0), words.one_sided)
        assert not any(read[n - 1].blank for n in alone), "a page printed alone needs no blank back"
        cards -= sum(len(read[n - 1].cards) for n in alone)  # fronts with nothing behind them
        read = [side for n, side in enumerate(read, 1) if n not in alone]
        placed = sum(len(side.cards) for side in read)
    if not backs.startswith("duplex"):
        assert not any(side.blank for side in read), "single-sided printing needs no blank pages"
        assert placed == cards + backed * (backs == "fold"), "fronts, and in fold their backs beside them"
        return
    edge = backs.removeprefix("duplex-")
    width, height = pdf.size(0)
    for k, (front, back) in enumerate(sheet_pairs(read), 1):
        where = f"sheet {k} (pages {2 * k - 1} and {2 * k})"
        assert not front.blank, f"{where}: a blank page on the front of a sheet"
        if back.cards:
            expected = [flipped(r, width, height, edge) for r in front.cards]
            assert matched(back.cards, expected), f"{where}: backs {back.cards}, fronts flipped {expected}"
        else:
            assert back.blank, f"{where}: the back of a one-sided page must be left blank, not printed on"
    fronts = sum(len(front.cards) for front, _ in sheet_pairs(read))
    assert (fronts, placed - fronts) == (cards, backed), "every card once on a front, every back behind one"


def numbers(ranges: str) -> list[int]:
    """'1–2, 5' -> [1, 2, 5]: pnp.components.setup_sheet.page_ranges read back."""
    out = []
    for part in ranges.split(", "):
        first, _, last = part.partition("–")
        out += range(int(first), int(last or first) + 1)
    return out


def named_pages(text: str, line: str) -> list[int]:
    """The page numbers a stock line of the setup page names, found in the page's text."""
    plain = " ".join(line.replace("**", "").split())
    before, _, after = (re.escape(part).replace(re.escape("{sheets}"), r"\d+") for part in plain.partition("{pages}"))
    found = re.search(before + r"([\d–, ]+?)" + after, text)
    assert found, f"{plain!r} is not on the setup page"
    return numbers(found.group(1))


@pytest.mark.parametrize("backs", BACK_MODES)
@pytest.mark.parametrize("game_id", list(games()))
def test_the_setup_page_names_the_pages_for_card_stock_and_for_plain_paper(built_pdf, game_id, backs):
    words = bundled(game_id).content["setup"]
    pdf = built_pdf(game=game_id, backs=backs)
    read = sides(pdf)
    # card stock: every page with cards on it, and the blank back of one
    card = [n for n, side in enumerate(read, 1) if side.cards or (side.blank and read[n - 2].cards)]
    text = pdf.text(0)
    assert named_pages(text, words.card_stock) == card
    assert named_pages(text, words.plain_paper) == [n for n in range(1, len(read) + 1) if n not in card]
