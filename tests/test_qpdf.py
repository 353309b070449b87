"""Every PDF the CLI writes passes `qpdf --check` (issue 26): every game on every paper, with each
kind of backs, with and without the ink saver, with gutters, and the calibration sheet. A printer
or a print shop's preflight meets a file broken in a way our readers (pypdf, pdfplumber, pdfium)
forgive; qpdf does not forgive it.

The games' PDFs are the session's (conftest's `built`): most are built already for the tests that
read them, so this adds the builds no other test needs (the ink saver's) and the checks."""

from __future__ import annotations

from itertools import product

import pytest

from pnp.calibrate import write_calibration
from pnp.gamedef import games
from pnp.imposition import BACK_MODES, PAPERS

BUILDS = [
    *(
        dict(game=game_id, paper=paper, backs=backs, ink_saver=ink_saver)
        for game_id, paper, backs, ink_saver in product(games(), PAPERS, BACK_MODES, (False, True))
    ),
    *(dict(game=game_id, paper=paper, gutters=True) for game_id, paper in product(games(), PAPERS)),
]


@pytest.mark.parametrize("options", BUILDS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_every_build_passes_qpdf(built, qpdf, options):
    assert qpdf(built(**options)) == ""


@pytest.mark.parametrize("paper", PAPERS)
def test_the_calibration_sheet_passes_qpdf(tmp_path, qpdf, paper):
    path = write_calibration(tmp_path / f"calibrate-{paper}.pdf", PAPERS[paper])
    assert qpdf(path) == ""


def test_qpdf_reports_a_damaged_pdf(tmp_path, built, qpdf):
    """The check can fail: a built PDF with bytes of one stream changed (its length kept, so every
    offset still holds) is reported, not passed."""
    data = bytearray(built().read_bytes())
    start = data.index(b"stream\n", data.index(b"/FlateDecode")) + len(b"stream\n")
    data[start + 10 : start + 30] = b"\x00" * 20
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(bytes(data))
    assert qpdf(damaged) != ""
