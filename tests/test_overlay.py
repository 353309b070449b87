"""`--content` folders laid over the bundled content: a new deck file adds its cards, a file of
the same name replaces the bundled one, and with several folders the later one wins."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest

from pnp.paths import CONTENT
from tests.conftest import invoke
from tests.conftest import overlay as content_folder

GAME = "spells-and-potions"
# The bundled cards' names wrap on the card, so they are recognised by their first word, which no
# other text in the set uses.
BUNDLED_NAMES = ["Gladder's", "Pranxtor's", "Jaype's", "Merlin's", "Larfor's", "Harpier's"]


def overlay(root: Path, name: str, text: str) -> Path:
    return content_folder(root, GAME, {name: text})


def magic_cards(cards: list[tuple[str, str, int]]) -> str:
    return "kind: magic-cards\ncards:\n" + "".join(
        f'  - name: {name}\n    type: {type_}\n    count: {count}\n    effect: "Whoever wins this trick is {name}."\n'
        for name, type_, count in cards
    )


def magic_count(*content: Path) -> int:
    """The Spells and Potions deck size as `pnp list` shows it."""
    args = ["list"]
    for folder in content:
        args += ["--content", str(folder)]
    result = invoke(*args)
    assert result.exit_code == 0, result.stderr
    match = re.search(r"^\s*magic\s+Spells and Potions cards\s+(\d+)\s", result.output, re.M)
    assert match, result.output
    return int(match.group(1))


def pdf_text(*args: str, out: Path) -> str:
    """Build (fronts only, A4) and return the PDF's text with all whitespace removed:
    names are matched regardless of how pdfplumber spaces the words."""
    result = invoke("build", GAME, "--backs", "none", "--paper", "a4", "--out", str(out), *args)
    assert result.exit_code == 0, result.stderr
    pdf = out / f"{GAME}-a4-fronts.pdf"
    assert pdf.exists()
    with pdfplumber.open(pdf) as doc:
        # landscape layouts are turned onto portrait paper: their text runs bottom to top
        text = "".join(page.extract_text(line_dir_rotated="ltr", char_dir_rotated="btt") or "" for page in doc.pages)
    return re.sub(r"\s+", "", text)


def squash(name: str) -> str:
    return re.sub(r"\s+", "", name)


NEW = [
    ("Zephyr Hex", "spell", 1),
    ("Quill Ward", "counter-spell", 1),
    ("Ember Tonic", "potion", 1),
    ("Frost Cure", "antidote", 1),
]


def test_bundled_list_has_twelve_spells_and_potions_cards():
    assert magic_count() == 12


@pytest.mark.slow
def test_a_new_deck_file_adds_its_cards(tmp_path):
    root = overlay(tmp_path / "mine", "extra-cards.yaml", magic_cards(NEW))
    assert magic_count(root) == 16
    text = pdf_text("--content", str(root), out=tmp_path / "out")
    for name, _, _ in NEW:
        assert squash(name) in text, name
    for name in BUNDLED_NAMES:  # added to, not replaced
        assert squash(name) in text, name
    # the bundled content itself is untouched
    assert not (CONTENT / GAME / "extra-cards.yaml").exists()


@pytest.mark.slow
def test_a_file_of_the_same_name_replaces_the_bundled_one(tmp_path):
    cards = [("Zephyr Hex", "spell", 4), ("Quill Ward", "counter-spell", 4), ("Ember Tonic", "potion", 4)]
    root = overlay(tmp_path / "mine", "magic-cards.yaml", magic_cards(cards))
    assert magic_count(root) == 12
    text = pdf_text("--content", str(root), out=tmp_path / "out")
    for name, _, _ in cards:
        assert squash(name) in text, name
    for name in BUNDLED_NAMES:
        assert squash(name) not in text, f"bundled card {name!r} still printed"
    assert "FIRE" in text and "WATER" in text  # other bundled files still used


@pytest.mark.slow
def test_the_later_of_two_content_folders_wins(tmp_path):
    first = overlay(tmp_path / "first", "magic-cards.yaml", magic_cards([("Alpha Rune", "spell", 12)]))
    second = overlay(
        tmp_path / "second", "magic-cards.yaml", magic_cards([("Beta Rune", "spell", 8), ("Gamma Rune", "potion", 8)])
    )
    assert magic_count(first, second) == 16
    assert magic_count(second, first) == 12
    text = pdf_text("--content", str(first), "--content", str(second), out=tmp_path / "out")
    assert "BetaRune" in text and "GammaRune" in text
    assert "AlphaRune" not in text
    assert not any(squash(name) in text for name in BUNDLED_NAMES)


def test_two_folders_each_adding_a_deck_file_add_both(tmp_path):
    first = overlay(tmp_path / "first", "first-cards.yaml", magic_cards(NEW[:2]))
    second = overlay(tmp_path / "second", "second-cards.yaml", magic_cards(NEW[2:]))
    assert magic_count(first, second) == 16


@pytest.mark.parametrize("bundled", ["elements.yaml", "game.yaml"])
def test_replacing_a_non_deck_file_is_allowed(tmp_path, bundled):
    text = (CONTENT / GAME / bundled).read_text(encoding="utf-8")
    text = text.replace("Spells and Potions\n", "Spells and Potions Deluxe\n").replace("ranks: 10", "ranks: 9")
    root = overlay(tmp_path / "mine", bundled, text)
    result = invoke("list", "--content", str(root))
    assert result.exit_code == 0, result.stderr
    if bundled == "elements.yaml":
        assert re.search(r"^\s*elements\s+Element cards\s+36\s", result.output, re.M), result.output
    else:
        assert "Spells and Potions Deluxe" in result.output
