"""The duplex calibration sheet, read back from its PDF: portrait, no line crosses a word, no
character under 6 pt, and the scales' numbers apart from each other."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pdfplumber
import pytest

from pnp.calibrate import REACH, targets, write_calibration
from pnp.components.templates import load_templates
from pnp.imposition import PAPERS
from pnp.paths import TEMPLATES
from pnp.units import MM
from tests.test_type import SMALLEST, size

NUMBERS = [str(n) for n in range(-REACH + 1, REACH, 2)]  # every 2 mm: -4 -2 0 2 4
APART = 1  # pt: the least room between two numbers


def crosses(a, b) -> bool:
    """Whether two boxes (x0, top, x1, bottom) overlap by more than a hair."""
    return a[0] < b[2] - 0.01 and b[0] < a[2] - 0.01 and a[1] < b[3] - 0.01 and b[1] < a[3] - 0.01


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_line_of_the_calibration_sheet_crosses_its_words(tmp_path, paper):
    path = write_calibration(tmp_path / f"calibrate-{paper}.pdf", PAPERS[paper])
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == 2
        for number, page in enumerate(pdf.pages, 1):
            assert page.width < page.height
            chars = [(c["x0"], c["top"], c["x1"], c["bottom"], c["text"]) for c in page.chars if c["text"].strip()]
            ink = [(o["x0"], o["top"], o["x1"], o["bottom"]) for o in page.lines + page.rects]
            assert len(chars) > 100 and len(ink) > 10
            for *box, text in chars:
                hit = [o for o in ink if crosses(box, o)]
                assert not hit, f"page {number}: {text!r} at {[round(v) for v in box]} is crossed by {hit[0]}"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_character_is_6_pt_or_more_and_no_two_numbers_of_the_scales_touch(tmp_path, paper):
    path = write_calibration(tmp_path / f"calibrate-{paper}.pdf", PAPERS[paper])
    centres = targets(PAPERS[paper], load_templates(TEMPLATES)["page"])
    with pdfplumber.open(path) as pdf:
        small = {(round(size(c), 2), c["text"]) for page in pdf.pages for c in page.chars if size(c) < SMALLEST}
        assert not small, f"under {SMALLEST} pt: {sorted(small)}"
        back = pdf.pages[1]

        def near_a_target(word) -> bool:  # the band's "page 2 of 2" is no scale's number
            x, y = (word["x0"] + word["x1"]) / 2, back.height - (word["top"] + word["bottom"]) / 2
            return any(abs(x - cx) < 25 * MM and abs(y - cy) < 25 * MM for cx, cy in centres)

        # a tolerance under a space's width: two numbers run together would read as one word
        words = back.extract_words(x_tolerance=0.5, y_tolerance=0.5)
        labels = [w for w in words if w["text"] in NUMBERS and near_a_target(w)]
        scales = 2 * len(centres)
        assert Counter(w["text"] for w in labels) == dict.fromkeys(NUMBERS, scales)
        for a, b in combinations(labels, 2):
            grown = (a["x0"] - APART, a["top"] - APART, a["x1"] + APART, a["bottom"] + APART)
            box = (b["x0"], b["top"], b["x1"], b["bottom"])
            assert not crosses(grown, box), f"{a['text']!r}, {b['text']!r} under {APART} pt apart: {grown}, {box}"
