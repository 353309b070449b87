"""Shared helpers: PDFs built once per session through the library and parsed once, the CLI run
through click's CliRunner, and --content folders written on the fly."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.build import build
from pnp.cli import main
from pnp.imposition import Options
from pnp.paths import CONTENT
from pnp.units import MM
from tests.pdfcards import BuiltPdf


def invoke(*args: str):
    """`pnp ARGS` through click's CliRunner. Whatever the exit status, a traceback is a failure:
    the CLI reports a user's mistakes as problems, never as a crash."""
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stderr, result.stderr
    return result


def overlay(root: Path, game: str, files: dict[str, str]) -> Path:
    """A --content folder: root/<game>/<name> holding each file's text; returns root."""
    folder = root / game
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return root


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


@pytest.fixture(scope="session")
def built_pdf(built):
    """built_pdf(same arguments as built) -> BuiltPdf: each PDF built and parsed once per session."""
    parsed: dict[Path, BuiltPdf] = {}

    def make(**options) -> BuiltPdf:
        path = built(**options)
        if path not in parsed:
            parsed[path] = BuiltPdf(path)
        return parsed[path]

    return make
