"""Shared fixtures: PDFs built once per session through the library, for the read-back tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.build import build
from pnp.imposition import Options
from pnp.paths import CONTENT
from pnp.units import MM


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """built(game, paper=..., backs=..., bleed=..., offset=(x, y) mm, ink_saver=...) -> Path; cached."""
    cache: dict[tuple, Path] = {}
    root = tmp_path_factory.mktemp("pdfs")

    def make(game="spells-and-potions", paper="a4", backs="duplex-long", bleed=3.0, offset=(0.0, 0.0), ink_saver=False):
        key = (game, paper, backs, bleed, offset, ink_saver)
        if key not in cache:
            options = Options(paper, backs, (offset[0] * MM, offset[1] * MM), bleed * MM, ink_saver)
            path = root / f"{len(cache)}-{game}-{paper}.pdf"
            build(game, [CONTENT], options, path)
            cache[key] = path
        return cache[key]

    return make
