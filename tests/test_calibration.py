"""The duplex calibration sheet, read back from its PDF: portrait, and no line crosses a word."""

from __future__ import annotations

import pdfplumber
import pytest

from pnp.calibrate import write_calibration
from pnp.imposition import PAPERS


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
