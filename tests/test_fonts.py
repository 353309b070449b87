"""Fonts prepared for first use (issue 18): a cold build prepares only the faces it sets text in and
says so on stderr, a warm one prepares nothing and says nothing; every prepared face has the
variable font's glyphs, advances and characters at its axes, and the same bytes every time."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from pnp.render import fonts
from tests.test_print_fidelity import all_fonts

SAMPLE = 9  # every 9th glyph of the font: about 500 a face, spread over every script it covers


def prepared(style: str) -> TTFont:
    name, package, filename, axes = fonts.STYLES[style]
    font = fonts.instance(package.ROOT / "files" / filename, axes)
    fonts.rename(font, name)
    data = io.BytesIO()
    font.save(data)
    return TTFont(io.BytesIO(data.getvalue()))


def points(glyph_set, name: str) -> list[tuple[float, float]]:
    pen = DecomposingRecordingPen(glyph_set)
    glyph_set[name].draw(pen)
    return [point for _, args in pen.value for point in args]


@pytest.mark.parametrize("style", fonts.STYLES)
def test_a_prepared_face_is_the_variable_font_at_its_axes(style):
    _, package, filename, axes = fonts.STYLES[style]
    variable = TTFont(package.ROOT / "files" / filename)
    static = prepared(style)
    assert static.getBestCmap() == variable.getBestCmap()  # what missing_characters reads
    at_axes, pinned = variable.getGlyphSet(location=axes), static.getGlyphSet()
    for name in variable.getGlyphOrder()[::SAMPLE]:
        # fontTools' own interpolation, with HVAR, which preparing drops: within its rounding
        assert abs(at_axes[name].width - static["hmtx"][name][0]) <= 1, name
        expected, got = points(at_axes, name), points(pinned, name)
        assert len(expected) == len(got), name
        assert all(abs(a - c) <= 1 and abs(b - d) <= 1 for (a, b), (c, d) in zip(expected, got, strict=True)), name


def test_preparing_a_face_twice_gives_the_same_bytes():
    _, package, filename, axes = fonts.STYLES["display"]

    def made() -> bytes:
        data = io.BytesIO()
        fonts.instance(package.ROOT / "files" / filename, axes).save(data)
        return data.getvalue()

    assert made() == made()


def pnp(*args: str, cache) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    return subprocess.run([sys.executable, "-m", "pnp", *args], env=env, capture_output=True, text=True, check=True)


def test_a_cold_build_prepares_only_the_faces_it_embeds_and_says_so(tmp_path):
    cache = tmp_path / "cache"
    command = ("build", "spells-and-potions", "--only", "magic", "--backs", "none")
    cold = pnp(*command, "--out", str(tmp_path / "cold"), cache=cache)
    made = {path.name.rsplit("-", 1)[0] for path in (cache / "spellpress" / "fonts").iterdir()}
    (pdf,) = (tmp_path / "cold").glob("*.pdf")
    embedded = {name.partition("+")[2] for name in all_fonts(PdfReader(pdf))}
    assert made == embedded
    assert len(made) < len(fonts.STYLES)  # else this build could not tell "the faces used" from "all"
    said = [line for line in cold.stderr.splitlines() if line.startswith("Preparing font ")]
    assert sorted(line.split()[2] for line in said) == sorted(made)
    assert cold.stdout.startswith("wrote ") and len(cold.stdout.splitlines()) == 1  # stdout as before

    warm = pnp(*command, "--out", str(tmp_path / "warm"), cache=cache)
    assert "Preparing" not in warm.stderr
    assert {path.name.rsplit("-", 1)[0] for path in (cache / "spellpress" / "fonts").iterdir()} == made
