"""The printed Spells and Potions set is complete: read back card by card from the PDF."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.spells_and_potions.printed import rank_text
from pnp.paths import CONTENT
from tests.support.pdfcards import BuiltPdf

SUITS = {"FIRE": "F", "EARTH": "E", "AIR": "A", "WATER": "W"}
MAGIC_COUNTS = {  # the rules' numbers in brackets
    "Gladder's Reward": 1,
    "Pranxtor's Fiery Reverse": 2,
    "Jaype's Trump Shield": 2,
    "Merlin's Power Blast": 2,
    "Merlin's New Apprentice": 2,
    "Larfor's Trump Choice": 2,
    "Harpier's Penalty": 1,
}

RULINGS_SP = load_game(game("spells-and-potions"), [CONTENT])["rulings"].rulings


def components_on(pdf: BuiltPdf, front: int) -> dict:
    """{front placement: component title} for a front page of a duplex-long build. Decks share a
    sheet in turn, each card backed by its own deck's back: the runs of backs, read in the fronts'
    order, are the components the label names, in its order."""
    w = pdf.size(front)[0]
    titles = pdf.text(front).split(" · ")[1].split(" + ")
    behind = {(round(b.x, 2), round(b.y, 2)): b.form for b in pdf.placements(front + 1)}
    fronts = sorted(pdf.placements(front), key=lambda p: (-round(p.y, 2), round(p.x, 2)))
    forms = [behind[(round(w - p.x - p.w, 2), round(p.y, 2))] for p in fronts]
    runs = list(dict.fromkeys(forms))
    assert len(runs) == len(titles), f"page {front + 1}: {len(runs)} backs for {titles}"
    return {p: titles[runs.index(form)] for p, form in zip(fronts, forms, strict=True)}


def cards_by_component(pdf: BuiltPdf, side: str = "fronts"):
    """(component title, card text) for every card on the pages whose label names that side."""
    found = []
    for page in range(len(pdf)):
        label = pdf.text(page)
        if "· fronts" not in label or not pdf.placements(page):
            continue
        owners = components_on(pdf, page)
        if side == "fronts":
            found += [(title, pdf.text_in(page, p.rect)) for p, title in owners.items()]
        else:
            w = pdf.size(page)[0]
            where = {(round(w - p.x - p.w, 2), round(p.y, 2)): title for p, title in owners.items()}
            found += [
                (where[(round(b.x, 2), round(b.y, 2))], pdf.text_in(page + 1, b.rect)) for b in pdf.placements(page + 1)
            ]
    return found


@pytest.fixture(scope="module")
def letter_pdf(built_pdf):
    return built_pdf(paper="letter", backs="duplex-long")


def test_the_deck_is_52_cards_each_with_a_back(letter_pdf):
    fronts = cards_by_component(letter_pdf, "fronts")
    backs = cards_by_component(letter_pdf, "backs")
    counts = Counter(component for component, _ in fronts)
    assert counts == {"Element cards": 40, "Spells and Potions cards": 12, "Reference cards": 4, "Trump markers": 4}
    assert Counter(component for component, _ in backs) == counts
    names = {"Element cards": "Element card", "Spells and Potions cards": "Spells and Potions card"}
    names |= {"Reference cards": "Reference", "Trump markers": "TRUMP"}
    for component, text in backs:  # each back names its deck
        assert names[component] in text, (component, text)


def test_element_cards_run_one_to_ten_in_four_suits_with_letter_and_trump(letter_pdf):
    seen = Counter()
    for component, text in cards_by_component(letter_pdf):
        if component != "Element cards":
            continue
        suit = next(s for s in SUITS if s in text)
        assert text.count(SUITS[suit]) >= 2, f"{suit} card shows its letter in both corners"
        rank = next(r for r in range(10, 0, -1) if str(r) in text)
        assert ("TRUMP" in text) == (suit == "FIRE"), "Fire is marked as the starting trump"
        seen[(suit, rank)] += 1
    assert seen == Counter({(s, r): 1 for s in SUITS for r in range(1, 11)})


def test_spells_and_potions_cards_come_in_the_rules_counts(letter_pdf):
    names = Counter()
    for component, text in cards_by_component(letter_pdf):
        if component == "Spells and Potions cards":
            squashed = text.replace(" ", "")
            names.update(n for n in MAGIC_COUNTS if n.replace(" ", "") in squashed)
    assert names == Counter(MAGIC_COUNTS)


def test_score_pads_cover_four_three_and_two_wizards(letter_pdf):
    texts = [letter_pdf.text(p) for p in range(len(letter_pdf))]
    pads = [text for text in texts if "· Tournament score pads ·" in text and "· blank back ·" not in text]
    assert len(pads) == 3
    assert "4 wizards" in pads[0] and all(seat in pads[0] for seat in ("North", "East", "South", "West"))
    assert "3 wizards and the Companion" in pads[1]
    assert "2 wizards and their Companions" in pads[2]
    for pad, wizards in zip(pads, (4, 3, 2), strict=True):
        assert all(f"Wizard {letter}" in pad for letter in "ABCD"[:wizards])
        assert "Duel 3" in pad and "Tournament total" in pad


# "If a wizard leads, the next player is the other wizard, then the Companions." and "The wizard who
# loses a duel chooses which wizard leads the next.": which Companion, and who after a tie, are our
# rulings, printed on the two-wizard pad only.
def test_the_two_wizard_pad_prints_our_order_of_play_and_tie_rulings(letter_pdf):
    texts = [" ".join(letter_pdf.text(p).split()) for p in range(len(letter_pdf))]
    pads = [text for text in texts if "· Tournament score pads ·" in text and "· blank back ·" not in text]
    for ruling, words in (
        ("two-wizard-order", "the leader's Companion"),
        ("tied-duel-leader", "Arranger chooses again"),
    ):
        assert words in " ".join(RULINGS_SP[ruling].replace("**", "").split())
        assert words in pads[2] and words not in pads[0] + pads[1]


def test_six_and_nine_carry_a_dot_in_the_centre_and_both_corners_and_no_other_rank_does(letter_pdf):
    """Upside down in a fanned hand, 6 and 9 read as each other; 8 and 10 read as themselves."""
    for component, text in cards_by_component(letter_pdf):
        if component != "Element cards":
            continue
        squashed = text.replace(" ", "").replace("\n", "")
        # a rank with its dot, read either way up ("6." upright, ".6" turned; not a sentence's full stop)
        marks = Counter(int(m.strip(".")) for m in re.findall(r"(?<!\d)\d+\.|(?<![A-Za-z])\.\d+(?!\d)", squashed))
        rank = next(r for r in range(10, 0, -1) if str(r) in squashed)
        assert marks == (Counter({rank: 3}) if rank in (6, 9) else Counter()), text


@pytest.mark.parametrize(
    "ranks, dotted",
    [
        (10, {6, 9}),
        (8, set()),  # a 6 upside down reads 9, which this suit does not have
        (20, {6, 9}),  # 16 and 19 read 91 and 61; 10 reads 01
        (99, {6, 9, 16, 18, 19, 61, 66, 68, 81, 86, 89, 91, 98, 99}),  # 69, 88, 96 read as themselves
    ],
)
def test_a_rank_is_dotted_when_upside_down_it_reads_as_another_rank_of_the_suit(ranks, dotted):
    assert {r for r in range(1, ranks + 1) if rank_text(r, ranks).endswith(".")} == set(dotted)


def test_four_trump_markers_one_per_element(letter_pdf):
    markers = [text for component, text in cards_by_component(letter_pdf) if component == "Trump markers"]
    assert sorted(next(s for s in SUITS if s in text) for text in markers) == sorted(SUITS)
    assert all("TRUMP" in text and "Trump Choice" in text for text in markers)
