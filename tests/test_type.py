"""Type (issue 8): what the fonts can set, and how small any text may print.

Greek and Cyrillic card text builds and reads back from the PDF as written; a script the fonts lack
is a content error naming the card, the field and the characters. Every character of both games, on
A4 and Letter, prints at 6 pt or more (read back from the PDFs), and every text region of a card
template other than the small labels listed here sets its text at 7 pt or more."""

from __future__ import annotations

import pdfplumber
import pytest

from pnp.gamedef import games
from pnp.regions.text import TextRegion
from tests.conftest import bundled
from tests.test_check_equals_build import line_of, overlay_file, run, shown

SMALLEST = 6  # pt, any text at all
BODY = 7  # pt, text meant to be read rather than glanced at
# (template or the start of its name, region): corner words and labels naming what is beside them;
# these may set at 6 pt.
LABELS = {
    ("ms-spell", "credit_word"),
    ("ms-spell", "mode"),
    ("ms-stone", "note"),
    ("ms-stone", "variant"),
    ("sp-element", "trump_word"),  # and the four suits' templates that extend it
    ("mm-order", "double"),  # and mm-order-double: the badge of a two-enchantment order
    ("mm-potion", "name"),  # the colour's name under a token's value
}

GREEK = "Η ανταμοιβή του Γκλάντερ"
CYRILLIC = "Награда Гладдера"


@pytest.mark.slow
def test_greek_and_cyrillic_card_text_builds_and_reads_back(tmp_path):
    root, _, _ = overlay_file(tmp_path, "magic-cards.yaml", "name: Gladder's Reward", f"name: {GREEK}")
    text = (root / "spells-and-potions" / "magic-cards.yaml").read_text(encoding="utf-8")
    text = text.replace("This trick is worth", f"{CYRILLIC} this trick is worth")
    (root / "spells-and-potions" / "magic-cards.yaml").write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    result = run("build", "spells-and-potions", "--content", str(root), "--backs", "none", "--out", str(out))
    assert result.exit_code == 0, result.output
    (pdf,) = out.glob("*.pdf")
    with pdfplumber.open(pdf) as doc:
        words = " ".join(page.extract_text() or "" for page in doc.pages)
    read = set(words.split())  # the name wraps, and cards stand side by side: compare word by word
    assert set(GREEK.split()) <= read and set(CYRILLIC.split()) <= read


def test_a_script_the_fonts_lack_is_named_with_the_card_and_field_and_nothing_is_written(tmp_path):
    root, path, text = overlay_file(tmp_path, "magic-cards.yaml", "name: Gladder's Reward", "name: কঙ Reward")
    out = tmp_path / "out"
    result = run("build", "spells-and-potions", "--content", str(root), "--out", str(out))
    assert result.exit_code == 2
    problem = next(p for p in result.stderr.splitlines() if p.startswith(f"{shown(path)}:{line_of(text, 'কঙ')}:"))
    assert "cards.0.name: " in problem
    assert "expected characters the embedded font has, got 'ক', 'ঙ' (U+0995, U+0999)" in problem
    assert not list(out.glob("*.pdf"))  # an absent folder globs to nothing too


def card_text_regions():
    seen = {}
    for definition in games().values():
        for name, template in bundled(definition.id).templates.items():
            for region_name, region in getattr(template, "regions", {}).items():  # page templates have none
                if isinstance(region, TextRegion):
                    seen[(name, region_name)] = region
    return sorted(seen.items())


@pytest.mark.parametrize(
    ("where", "region"), card_text_regions(), ids=lambda v: "/".join(v) if isinstance(v, tuple) else ""
)
def test_card_text_never_shrinks_below_its_floor(where, region):
    smallest = min(region.size, region.min_size if region.min_size is not None else region.size)
    label = any(where[0].startswith(template) and where[1] == name for template, name in LABELS)
    floor = SMALLEST if label else BODY
    assert smallest >= floor, f"{where} may set its text at {smallest:g} pt"


def size(char) -> float:
    """The font size a character prints at: pdfminer's box is one font size tall across the line,
    but its `size` reads the box's height even when the line runs up the page (the page band)."""
    a, b = char["matrix"][:2]
    return char["height"] if abs(a) >= abs(b) else char["width"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_character_of_every_game_prints_at_6_pt_or_more(built_pdf, paper):
    for game_id in games():  # as `pnp build --paper PAPER` prints them, read once for the session
        pdf = built_pdf(game=game_id, paper=paper)
        small = {
            (round(size(c), 2), c["text"]) for page in range(len(pdf)) for c in pdf.chars(page) if size(c) < SMALLEST
        }
        assert not small, f"{pdf.path.name}: characters below {SMALLEST} pt: {sorted(small)[:10]}"
