"""Magic Spell's card design read back from the built PDF: where the effect starts, how much of
the spell panel is left bare, the stones, the turn reference and the spirit track."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pypdfium2
import pytest

from tests.support.pdfcards import MM
from tests.test_magic_spell_set import cards_on

PANEL_INSET = 5 * MM  # the panel is 3.5 mm inside the trim; its gold border 1 pt more
LARGEST_BARE_BAND = 12 * MM
PIXELS_PER_POINT = 4


@pytest.fixture(scope="module")
def pdf(built_pdf):
    return built_pdf(game="magic-spell", paper="a4", backs="duplex-long")


def effect_first_line_top(chars) -> float:
    """The top of the effect's first line, in the card's upright frame: the highest upright
    (not italic) text below the magic word, which is the largest text on the card."""
    word_size = max(c["size"] for c in chars)
    word_bottom = min(c["y0"] for c in chars if c["size"] > word_size - 0.5)
    effect = [c for c in chars if c["y1"] < word_bottom and "Oblique" not in c["fontname"]]
    return max(c["y1"] for c in effect)


def test_every_spell_effect_starts_at_the_same_height(pdf):
    tops = [effect_first_line_top(pdf.chars_on(page, p)) for page, p, _ in cards_on(pdf, "Spell cards")]
    assert len(tops) > 40
    assert max(tops) - min(tops) <= 0.5 * MM, f"effect tops spread over {(max(tops) - min(tops)) / MM:.2f} mm"


def bare_bands(image: np.ndarray) -> list[int]:
    """Heights in pixel rows of the runs of rows holding nothing but the panel's own colour."""
    rows = image.reshape(-1, 3)
    background = np.array(Counter(map(tuple, rows[:: max(1, len(rows) // 5000)])).most_common(1)[0][0])
    marked = (np.abs(image.astype(int) - background).sum(axis=2) > 30).any(axis=1)
    runs, run = [], 0
    for row_marked in marked:
        run = 0 if row_marked else run + 1
        runs.append(run)
    return runs


def test_no_spell_panel_leaves_a_wide_bare_band(pdf):
    pages: dict[int, np.ndarray] = {}
    document = pypdfium2.PdfDocument(str(pdf.path))
    widest = []
    for page, p, text in cards_on(pdf, "Spell cards"):
        assert p.turns == 0
        if page not in pages:
            pages[page] = np.asarray(document[page].render(scale=PIXELS_PER_POINT).to_pil().convert("RGB"))
        height = pdf.size(page)[1]
        x0, y0, x1, y1 = p.rect
        crop = pages[page][
            round((height - y1 + PANEL_INSET) * PIXELS_PER_POINT) : round(
                (height - y0 - PANEL_INSET) * PIXELS_PER_POINT
            ),
            round((x0 + PANEL_INSET) * PIXELS_PER_POINT) : round((x1 - PANEL_INSET) * PIXELS_PER_POINT),
        ]
        widest.append((max(bare_bands(crop)) / PIXELS_PER_POINT, text[:60]))
    band, card = max(widest)
    assert band < LARGEST_BARE_BAND, f"{card}: {band / MM:.1f} mm of the panel bare"


def test_each_philosophers_stone_is_marked_as_the_variants_piece(pdf):
    from pnp.content.game import load_game
    from pnp.gamedef import game
    from pnp.paths import CONTENT

    content = load_game(game("magic-spell"), [CONTENT])
    marked = [text for _, _, text in cards_on(pdf, "Ingredient tiles") if content["words"].stone_variant in text]
    assert len(marked) == len(content["magic-spell-set"].philosophers_stones)
    assert all(content["words"].stone in text for text in marked)


COIN = 20 * MM  # the largest bead or coin a spirit track's space must hold
LILAC = (0xED, 0xE6, 0xFB)  # the spaces' fill (templates/magic-spell/ms-spirit.yaml); the start space is gold


def widest_runs(mask: np.ndarray) -> list[int]:
    """For each column of boxes in a mask, the longest run of set pixels along its rows: the
    boxes' inner width. Runs are grouped by where they start (rounded corners start later); a run
    starting inside a longer one is the part of a box beside its number."""
    found: list[tuple[int, int]] = []
    for row in mask:
        edges = np.diff(np.concatenate([[0], row.astype(int), [0]]))
        starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
        found += zip(starts, ends - starts, strict=True)
    groups: list[list[int]] = []  # [start, longest]
    for start, length in sorted(found):
        if groups and start - groups[-1][0] < 6 * MM * PIXELS_PER_POINT:
            groups[-1][1] = max(groups[-1][1], length)
        else:
            groups.append([start, length])
    return [
        length
        for start, length in groups
        if not any(other < start < other + span for other, span in groups) and length > 5 * MM * PIXELS_PER_POINT
    ]


def test_every_spirit_space_holds_a_20_mm_coin(pdf):
    document = pypdfium2.PdfDocument(str(pdf.path))
    tracks = list(cards_on(pdf, "Spirit tracks"))
    assert len(tracks) == 4
    for page, p, text in tracks:
        image = np.asarray(document[page].render(scale=PIXELS_PER_POINT).to_pil().convert("RGB")).astype(int)
        height = pdf.size(page)[1]
        x0, y0, x1, y1 = (
            round(v * PIXELS_PER_POINT) for v in (p.rect[0], height - p.rect[3], p.rect[2], height - p.rect[1])
        )
        crop = image[y0:y1, x0:x1]
        spaces = np.abs(crop - np.array(LILAC)).sum(axis=2) < 24
        across, down = widest_runs(spaces), widest_runs(spaces.T)
        if p.turns % 2:  # a strip turned on the page: its rows are the image's columns
            across, down = down, across
        assert len(across) == 8 and len(down) == 2, (len(across), len(down))  # 15 lilac spaces, 8 by 2
        narrowest = min(across + down) / PIXELS_PER_POINT
        assert narrowest >= COIN, f"a space is {narrowest / MM:.1f} mm across inside"
        assert "Above 15" in text.replace("\n", " ")
