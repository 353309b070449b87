"""The printed Merchants of Magick set, read back from the PDF: the shoppe sheet drawn from the
sheet content (every row, every circle in its column and on its row, circles big enough for a
pencil, one page on A4 and Letter, a threshold changed in an overlay printed), the cards and their
counts, the two-sided Mastery cards, and the potion tokens."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from pnp.build import build
from pnp.components.kinds import Deck
from pnp.components.templates import load_templates
from pnp.content.game import load_game
from pnp.export_cards import export_cards
from pnp.export_tts import export_decks
from pnp.gamedef import game
from pnp.imposition import Options
from pnp.paths import CONTENT
from pnp.paths import TEMPLATES as TEMPLATE_DIR
from tests.conftest import bundled, overlay
from tests.support.pdfcards import MM, BuiltPdf, read

GAME = "merchants-of-magick"
TEMPLATES = load_templates(TEMPLATE_DIR)


@pytest.fixture(scope="module")
def content():
    return load_game(game(GAME), [CONTENT])


@pytest.fixture(scope="module")
def pdf(built_pdf):
    return built_pdf(game=GAME, paper="a4", backs="duplex-long")


def sheet_pages(path, title: str) -> list[int]:
    """The pages that print a shoppe sheet (a duplex build follows each with a blank back)."""
    pdf = read(path)
    texts = [pdf.text(page) for page in range(len(pdf))]
    return [i for i, text in enumerate(texts) if f"· {title} ·" in text and "· blank back ·" not in text]


def sheet_layout(path, page: int, sheet, words):
    """From the sheet page: each column's x-range (by its heading in the crafting or research
    header), each row's y-band (from its name down to the next row's name), the circles' words
    (sign + threshold) and the drawn circles' diameters."""
    pdf = read(path)
    found = pdf.words(page, keep_blank_chars=False, extra_attrs=["size", "fontname"])
    curves = [(c["x1"] - c["x0"], c["bottom"] - c["top"]) for c in pdf.plumber.pages[page].curves if c.get("stroke")]
    headings = {}
    for column in (*sheet.materials, *sheet.energies):
        # the lowest of the name's occurrences: the legend above the halves names the columns too
        hits = [w for w in found if w["text"] == column.name]
        assert hits, f"column heading {column.name} printed"
        headings[column.id] = max(hits, key=lambda w: w["top"])
    below = max(w["top"] for w in headings.values())
    size = TEMPLATES["mm-sheet"].ratios["circle_text"]
    # a circle's number (its sign is drawn as lines): digits at the circles' size under the headings
    circles = [w for w in found if w["text"].isdigit() and w["top"] > below and abs(w["size"] - size) < 0.3]
    return found, headings, circles, curves


def column_ranges(headings: dict, ids: list[str]) -> dict[str, tuple[float, float]]:
    """Each column spans half-way to its neighbours' heading centres."""
    centres = [(headings[i]["x0"] + headings[i]["x1"]) / 2 for i in ids]
    step = (centres[-1] - centres[0]) / (len(centres) - 1) if len(centres) > 1 else 60
    return {i: (c - step / 2, c + step / 2) for i, c in zip(ids, centres, strict=True)}


def check_sheet(path, sheet, words):  # noqa: C901
    page = sheet_pages(path, words.components["sheets"])[0]  # the copies are one drawing: the first stands for all
    found, headings, circles, curves = sheet_layout(path, page, sheet, words)
    text = " ".join(w["text"] for w in found).replace("’", "'")
    halves = (("crafting", sheet.crafting, sheet.materials), ("research", sheet.research, sheet.energies))
    for side, rows, cols in halves:
        ranges = column_ranges(headings, [c.id for c in cols])
        left = min(r[0] for r in ranges.values())
        right = max(r[1] for r in ranges.values())
        name_x = (left - 40 * MM, left)
        for row in rows:
            assert all(part in text for part in row.name.split()), f"{row.name} on the sheet"
        # the rows' name words, top to bottom, as printed in this half's name column
        names = sorted(
            (w for w in found if name_x[0] <= w["x0"] < name_x[1] and w["size"] >= 6.4 and "Bold" in w["fontname"]),
            key=lambda w: w["top"],
        )
        firsts = [row.name.split()[0] for row in rows]
        tops, at = [], 0
        for w in names:
            next_row = not tops or w["top"] - tops[-1] > 5 * MM
            if at < len(firsts) and w["text"].replace("’", "'") == firsts[at] and next_row:
                tops.append(w["top"])
                at += 1
        assert len(tops) == len(rows), f"{side}: every row name in order"
        pitch = tops[1] - tops[0]
        mine = [c for c in circles if left <= c["x0"] and c["x1"] <= right]
        expected = Counter()
        for i, row in enumerate(rows):
            for column, thresholds in row.circles.items():
                for threshold in thresholds:
                    expected[(i, column, threshold)] += 1
        got = Counter()
        for c in mine:
            centre_x, centre_y = (c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2
            [column] = [cid for cid, (x0, x1) in ranges.items() if x0 <= centre_x < x1]
            i = max(range(len(tops)), key=lambda k: tops[k] if tops[k] - 2 * MM <= centre_y else -1)
            assert tops[i] - 2 * MM <= centre_y <= tops[i] + pitch, f"{c['text']} on its row's line"
            assert c["size"] >= 8, "a circle's number is at least 8 pt"
            got[(i, column, int(c["text"]))] += 1
        assert got == expected, side
    total = sum(len(t) for row in (*sheet.crafting, *sheet.research) for t in row.circles.values())
    big = [d for d in curves if abs(d[0] - d[1]) < 0.3 * MM and d[0] >= 5 * MM]
    assert len(big) >= total, "every circle drawn at least 5 mm across"
    return text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_shoppe_sheet_is_one_page_with_every_row_and_circle_in_place(built, content, paper):
    path = built(game=GAME, paper=paper, backs="duplex-long")
    sheet, words, rules = content["shoppe-sheet"], content["words"], content["merchants-rules"]
    text = check_sheet(path, sheet, words)
    for label in (*sheet.score.values(), sheet.total):
        assert all(part in text for part in label.split()), label
    assert sheet.shoppe_name.split()[0] in text
    assert words.free in text and words.extra_dice.split()[0] in text
    assert "potions" in text and words.potions_tally in text
    assert re.search(r"\b10\b", text) and str(rules.rounds) in text
    assert "Tied?" in text


def test_a_threshold_changed_in_an_overlay_changes_the_sheet(tmp_path, content):
    words = content["words"]
    text = (CONTENT / GAME / "sheet.yaml").read_text(encoding="utf-8")
    old = "{name: Plate Armor, category: armour, coins: 8, circles: {leather: [5], steel: [6, 8, 9]}}"
    new = "{name: Plate Armor, category: armour, coins: 8, circles: {leather: [2], wood: [4], steel: [6, 8, 9]}}"
    assert old in text
    root = overlay(tmp_path / "ov", GAME, {"sheet.yaml": text.replace(old, new)})
    path = tmp_path / "out.pdf"
    build(GAME, [CONTENT, root], Options("a4", "none", (0.0, 0.0), 3 * MM, False, False), path)
    changed = load_game(game(GAME), [CONTENT, root])["shoppe-sheet"]
    assert changed.crafting[-1].circles == {"leather": [2], "wood": [4], "steel": [6, 8, 9]}
    check_sheet(path, changed, words)  # every circle, the new ones included, where the content says


def test_more_circles_than_a_column_holds_are_reported_where_the_row_was_written(tmp_path):
    from click.testing import CliRunner

    from pnp.cli import main

    text = (CONTENT / GAME / "sheet.yaml").read_text(encoding="utf-8")
    old = "{name: Ring, category: accessory, coins: 3, circles: {leather: [3], steel: [5]}}"
    new = "{name: Ring, category: accessory, coins: 3, circles: {leather: [3, 3, 3, 3, 3, 3, 3, 3], steel: [5]}}"
    assert old in text
    root = overlay(tmp_path / "ov", GAME, {"sheet.yaml": text.replace(old, new)})
    line = text.splitlines().index(next(t for t in text.splitlines() if old in t)) + 1
    result = CliRunner().invoke(main, ["build", GAME, "--content", str(root), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert f"sheet.yaml:{line}:" in result.output and "crafting.0.circles.leather" in result.output
    assert "(expected at most 3 circles, got 8)" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_more_rounds_than_the_round_grid_has_room_for_are_refused_where_written(tmp_path):
    from click.testing import CliRunner

    from pnp.cli import main

    text = (CONTENT / GAME / "rules.yaml").read_text(encoding="utf-8")
    assert "\nrounds: 10 " in text
    root = overlay(tmp_path / "ov", GAME, {"rules.yaml": text.replace("\nrounds: 10 ", "\nrounds: 16 ")})
    result = CliRunner().invoke(main, ["check", GAME, "--content", str(root)])
    line = text.splitlines().index(next(t for t in text.splitlines() if t.startswith("rounds:"))) + 1
    assert result.exit_code == 2
    assert f"rules.yaml:{line}:" in result.output and "rounds: expected a number <= 15, got 16" in result.output


# --- cards ---------------------------------------------------------------------------------


def cards(pdf: BuiltPdf, side: str = "fronts"):
    """(page, placement, text) for every card on the card pages of that side."""
    for page in range(len(pdf)):
        if f" · {side}" in pdf.text(page):
            for p in pdf.placements(page):
                yield page, p, pdf.text_in(page, p.rect)


def test_order_adventurer_and_mastery_counts(pdf, content):
    words = content["words"]
    texts = [text for _, _, text in cards(pdf)]
    orders = [t for t in texts if t.startswith(words.order + " ")]
    adventurers = [t for t in texts if t.startswith(words.adventurer)]
    material = [t for t in texts if t.startswith(words.material)]
    energy = [t for t in texts if t.startswith(words.energy)]
    assert len(orders) == sum(o.count for o in content["order-cards"].cards) >= 40
    assert len(adventurers) == len(content["adventurer-cards"].cards) == 8
    assert len(material) >= 4 and len(energy) >= 4
    doubles = [o for o in content["order-cards"].cards if o.prefix and o.suffix]
    assert sum(words.double in t for t in orders) == sum(o.count for o in doubles) > 0
    for hero in content["adventurer-cards"].cards:
        [t] = [t for t in adventurers if hero.name in t]
        assert all(x in t for x in (hero.accessory, hero.weapon, hero.armour, hero.enchantment, str(hero.coins)))


def test_each_masterys_apprentice_side_is_behind_its_master_side(pdf, content):
    words = content["words"]
    found = 0
    for page, p, text in cards(pdf):
        card = next((c for c in content["mastery-cards"].cards if f"{words.master} {c.name} " in text), None)
        if card is None:
            continue
        width, _ = pdf.size(page)
        assert "backs" in pdf.text(page + 1)
        # flipped on the long edge: the back's x is mirrored across the page
        behind = [
            b
            for b in pdf.placements(page + 1)
            if abs(b.x - (width - p.x - p.w)) < 0.5 * MM and abs(b.y - p.y) < 0.5 * MM
        ]
        assert len(behind) == 1, card.name
        back = pdf.text_in(page + 1, behind[0].rect)
        assert f"{words.apprentice} {card.name}" in back
        assert re.search(rf"\b{card.apprentice} {words.coins}\b", back), back
        assert re.search(rf"\b{card.master} {words.coins}\b", text)
        found += 1
    assert found == len(content["mastery-cards"].cards)


def test_potion_tokens_per_colour_with_their_values(pdf, content):
    tokens = Counter()
    for _, p, text in cards(pdf):
        if abs(p.w - 19 * MM) < 0.2 * MM:
            tokens[text] += 1
    expected = Counter({f"{t.value} {t.name}": t.count for t in content["potion-tokens"].tokens})
    assert tokens == expected


def test_the_solo_card_fills_its_numbers_and_lists_the_ratings(pdf, content):
    words, rules = content["words"], content["merchants-rules"]
    [solo] = [t for _, _, t in cards(pdf) if t.startswith(words.solo_title)]
    assert "{" not in solo and f"{rules.solo.shop} orders" in solo
    for title, score in rules.solo.ratings.items():
        assert f"{score}+ · {title}" in solo


@pytest.mark.slow
def test_two_sided_cards_export_a_back_per_card_and_unique_tts_backs(tmp_path):

    opened = bundled(GAME)
    [masteries] = [c for c in opened.components() if isinstance(c, Deck) and c.id == "masteries"]
    written = export_cards(GAME, [masteries], opened.templates, 0.0, 72, tmp_path / "cards")
    names = sorted(p.name for p in written)
    assert len(names) == 2 * len(masteries.faces)
    assert "001-tanner-master.png" in names and "001-tanner-master-back.png" in names
    export_decks(GAME, "Merchants", [masteries], opened.templates, tmp_path / "tts")
    saved = json.loads((tmp_path / "tts" / f"{GAME}.json").read_text())
    [entry] = saved["ObjectStates"][0]["CustomDeck"].values()
    assert entry["UniqueBack"] is True and entry["BackURL"].endswith("-1-backs.png")


def test_fold_puts_each_apprentice_side_beside_its_master_side(built_pdf, content):
    words = content["words"]
    pdf = built_pdf(game=GAME, paper="a4", backs="fold")
    for page in range(len(pdf)):
        texts = [pdf.text_in(page, p.rect) for p in pdf.placements(page)]
        for card in content["mastery-cards"].cards:
            if any(f"{words.master} {card.name} " in t for t in texts):
                assert any(f"{words.apprentice} {card.name} " in t for t in texts), card.name


def test_the_round_card_moves_orders_one_space_not_one_shoppe(pdf, content):
    # "Move all Orders one space clockwise around the table": a card, not a shoppe's whole line
    # (the engine's Customer phase; rulings.yaml says which way is left)
    rounds = content["merchants-rules"].rounds
    [card] = {" ".join(t.split()) for _, _, t in cards(pdf) if t.startswith("A round")}  # its copies alike
    assert "one space to your left" in card and "right end of the line of the player on your left" in card
    assert "one shoppe" not in card and f"Not in round {rounds}." in card  # printed whole, numbers filled
