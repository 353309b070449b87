"""Spellcycles' printed cards, read back from the PDF: every spell, blank and reference card at
poker size on A4 and Letter, duplex and fold; a spell's pattern diagram read from the rendered
card's pixels (each colour's ink where the pattern puts it, vacant and marked cells, rows as
written, never turned); the name, requirements, effect and prestige printed; a user's own deck
given with --content (a spell with words only, a stack, a large pattern) printed like ours, and
`--only spells` printing spell cards and nothing else."""

from __future__ import annotations

from collections import Counter

import pypdfium2
import pytest

from pnp.games.spellcycles.pattern_region import layout, legible_on
from pnp.render.colours import to_colour
from tests.conftest import bundled, invoke, overlay
from tests.support.pdfcards import MM, BuiltPdf, read
from tests.test_legibility import contrast

GAME = "spellcycles"
OPENED = bundled(GAME)
CONTENT, TEMPLATES = OPENED.content, OPENED.templates
WORDS = CONTENT["words"]
SPELLS = CONTENT["spell-cards"].cards
COPIES = CONTENT["reference-card"].copies
TITLES = [card.title for card in CONTENT["reference-card"].cards] + [WORDS.rulings, WORDS.rulings_more]
INKS = TEMPLATES["sc-spell"].colours
SCALE = 4  # pixels per point when a page is rendered


def kind_of(text: str) -> str:
    """What a printed card is, by its words."""
    if text.startswith(WORDS.name) and f"{WORDS.requirements}:" in text:
        return "blank"
    if any(text.startswith(title) for title in TITLES):
        return "reference"
    if f"{WORDS.requirements}:" in text and WORDS.prestige in text:
        return "spell"
    return "back"


POKER = sorted((TEMPLATES["sc-spell"].size.width, TEMPLATES["sc-spell"].size.height))


def printed(pdf: BuiltPdf):
    """(page, placement, text, kind) for every card in the file: the poker-size placements but the
    knucklebone table, a playing piece (tests/test_spellcycles_pieces.py), as the tokens are."""
    for page in range(len(pdf)):
        for p in pdf.placements(page):
            text = pdf.text_in(page, p.rect)
            if sorted((p.w, p.h)) == pytest.approx(POKER) and not text.startswith(WORDS.components.knucklebone):
                yield page, p, text, kind_of(text)


def spell_on(pdf: BuiltPdf, name: str):
    """(page, placement, text) of the spell card of that name."""
    [found] = [(page, p, text) for page, p, text, kind in printed(pdf) if kind == "spell" and text.startswith(name)]
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("backs", ["duplex-long", "fold"])
def test_every_card_prints_once_at_poker_size_with_one_back(built_pdf, paper, backs):
    pdf = built_pdf(game=GAME, paper=paper, backs=backs)
    cards = list(printed(pdf))
    counts = Counter(kind for *_, kind in cards)
    per_set = len(CONTENT["reference-card"].cards) + 3  # our rulings take three cards at a legible size
    assert counts == {
        "spell": len(SPELLS),
        "blank": 9,
        "reference": per_set * COPIES,
        "back": len(SPELLS) + 9 + per_set * COPIES + 1,  # and the knucklebone table's, a reference back
    }
    for _, p, _, _ in cards:
        assert sorted((p.w / MM, p.h / MM)) == pytest.approx([63.5, 88.9], abs=0.05)
    if backs == "fold":
        assert all("fronts and backs" in pdf.text(page) for page, *_ in cards)


def test_each_spell_shows_its_name_requirements_effect_and_prestige(built_pdf):
    pdf = built_pdf(game=GAME, paper="a4", backs="duplex-long")
    # name: (requirements as printed, prestige, words of its effect with numbers filled from its data)
    expected = {
        "Bippity, Boppity, Blue": ("nothing", 3, "Take up to 3 blue components"),
        "Friend of Jack": ("1 Essence", 0, "Take up to 3 prestige certificates"),  # the card's own 0
        "Might": ("1 Essence", 2, "Gain 4 essence"),
        "Translocation": ("2 Essence", 2, "trade places"),  # the vacant space needs no piece
        "Telekinesis": ("any Essence (n)", 3, "up to n spaces away"),
        "Implode": ("1 Certificate", 4, "marked"),  # the marked space needs a piece: it counts
        # the rules' 6 essence, and the cost our Swift Time variant asks after it. The two gaps do not count
        "Reverse Time": ("6 Essence · Swift Time: 2 Essence", 4, "moon crescent back"),
        "Killing Time": ("6 Essence · Swift Time: 3 Essence", 3, "take a moon crescent out"),
        "Quick Fingers": ("1 or 3 Essence", 2, "Paid 3?"),
    }
    for name, (requirements, prestige, effect) in expected.items():
        page, p, text = spell_on(pdf, name)
        assert f"{WORDS.requirements}: {requirements}" in text, text
        assert effect in text and "{" not in text, text
        # the prestige badge, top right, above its label
        badge = [c["text"] for c in pdf.chars_on(page, p) if c["x0"] > 44 * MM and c["y0"] > p.h - 21 * MM]
        assert "".join(badge) == f"{prestige}{WORDS.prestige}", (name, badge)
    x, top, w, h = TEMPLATES["sc-spell"].regions["duel"].box
    for card in SPELLS:
        page, p, _ = spell_on(pdf, card.name)
        tab = [c for c in pdf.chars_on(page, p) if x <= c["x0"] and c["x1"] <= x + w and c["y0"] >= p.h - top - h]
        tab = "".join(c["text"] for c in tab if c["y1"] <= p.h - top)
        assert tab == (WORDS.duel if card.duel else ""), card.name


def inside(c: dict, p) -> bool:
    return p.x <= c["x0"] and c["x1"] <= p.x + p.w and p.y <= c["y0"] and c["y1"] <= p.y + p.h


def test_every_word_on_the_cards_is_7_pt_or_larger(built_pdf):
    pdf = built_pdf(game=GAME, paper="a4", backs="duplex-long")
    for page, p, _, kind in printed(pdf):
        sizes = [c["size"] for c in pdf.chars(page) if inside(c, p) and c["text"].strip()]
        assert sizes and min(sizes) >= 7 - 0.01, (page, kind, min(sizes))


# --- the diagram, read from pixels ---------------------------------------------------------


class Rendered:
    """One page rendered, sampled in the frame of an upright card placed on it."""

    def __init__(self, path, page: int):
        document = pypdfium2.PdfDocument(str(path))
        self.height = document[page].get_height()
        self.image = document[page].render(scale=SCALE).to_pil().convert("RGB")
        document.close()

    def colour(self, p, x: float, y: float, patch: int = 2) -> tuple[int, int, int]:
        """The mean colour of a small patch at (x, y) points in the upright card's frame (0: one pixel)."""
        px, py = p.to_page(x, y)
        cx, cy = round(px * SCALE), round((self.height - py) * SCALE)
        steps = sorted({-patch, 0, patch})
        pixels = [self.image.getpixel((cx + dx, cy + dy)) for dx in steps for dy in steps]
        return tuple(round(sum(c[i] for c in pixels) / len(pixels)) for i in range(3))


def cells(rows: int, columns: int):
    """Each cell's bottom-left corner (row, column from the top left) and side, in the card's
    frame, as the template's pattern region lays them out."""
    region = TEMPLATES["sc-spell"].regions["pattern"]
    x, top, w, h = region.box
    card_h = TEMPLATES["sc-spell"].size.height
    side, dx, dy = layout(rows, columns, w, h, region.max_cell)
    bottom = card_h - top - h + dy
    at = {(r, c): (x + dx + c * side, bottom + (rows - 1 - r) * side) for r in range(rows) for c in range(columns)}
    return side, at


def hex_rgb(value: str) -> tuple[int, int, int]:
    return tuple(int(value[i : i + 2], 16) for i in (1, 3, 5))


def near(got, expected: str, tolerance: int = 14) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(got, hex_rgb(expected), strict=True))


def fill_of(page_image: Rendered, p, corner, side):
    """A piece's fill: left of its symbol, half-way up (clear of the symbol and the letter)."""
    return page_image.colour(p, corner[0] + side * 0.16, corner[1] + side * 0.55)


@pytest.fixture(scope="module")
def a4(built):
    return built(game=GAME, paper="a4", backs="duplex-long")


def test_translocations_diagram_is_blue_then_an_empty_ring_then_yellow(a4):
    page, p, _ = spell_on(read(a4), "Translocation")
    image = Rendered(a4, page)
    side, corners = cells(1, 3)
    assert near(fill_of(image, p, corners[0, 0], side), INKS["blue"])
    assert near(fill_of(image, p, corners[0, 2], side), INKS["yellow"])
    x, y = corners[0, 1]
    board = INKS["board"]
    assert near(fill_of(image, p, corners[0, 1], side), board), "the vacant cell holds no piece"
    assert near(image.colour(p, x + side / 2, y + side * 0.6), board), "its ring is empty"
    ring = image.colour(p, x + side / 2 + side * 0.22, y + side * 0.6)
    assert sum(ring) < 200, f"the ring is drawn dark: {ring}"


def test_implodes_marked_cell_is_hatched_under_a_cross_and_holds_no_colour(a4):
    page, p, _ = spell_on(read(a4), "Implode")
    image = Rendered(a4, page)
    side, corners = cells(2, 2)
    assert near(fill_of(image, p, corners[0, 0], side), INKS["red"])
    assert near(fill_of(image, p, corners[0, 1], side), INKS["blue"])
    assert near(fill_of(image, p, corners[1, 1], side), INKS["black"])
    x, y = corners[1, 0]
    dark = lambda colour: sum(colour) < 250
    # the cross's upper arms (its feet may sit under the cell's word), drawn from (.25, .3) to (.75, .85)
    arms = [(0.25 + 0.5 * (f - 0.3) / 0.55, f) for f in (0.6, 0.7, 0.8)]
    arms += [(0.25 + 0.5 * (0.85 - f) / 0.55, f) for f in (0.6, 0.7, 0.8)]
    assert all(dark(image.colour(p, x + side * u, y + side * v)) for u, v in arms), "a bold cross"
    # hatching: across the cell's upper part, light and dark alternate many times
    across = [dark(image.colour(p, x + side * i / 200, y + side * 0.88, patch=0)) for i in range(20, 181)]
    assert sum(a != b for a, b in zip(across, across[1:], strict=False)) >= 6, "diagonal hatching"
    samples = [image.colour(p, x + side * i / 10, y + side * j / 10) for i in range(1, 10) for j in range(1, 10)]
    inks = ("red", "yellow", "green", "blue")
    assert not any(near(s, INKS[c], 20) for s in samples for c in inks), "no colour of its own"


def test_a_two_row_pattern_prints_as_two_rows_as_written(a4):
    """Reverse Time is blue, green, gap over gap, yellow, white: read turned or mirrored it would
    be another spell."""
    page, p, _ = spell_on(read(a4), "Reverse Time")
    image = Rendered(a4, page)
    side, corners = cells(2, 3)
    inks = {(0, 0): "blue", (0, 1): "green", (1, 1): "yellow", (1, 2): "white"}
    for at, ink in inks.items():
        assert near(fill_of(image, p, corners[at], side), INKS[ink]), at
    # the diagram's height: from the panel above it to the panel below it, two cells
    region = TEMPLATES["sc-spell"].regions["pattern"]
    centre_x = region.box[0] + region.box[2] / 2
    card_h = TEMPLATES["sc-spell"].size.height
    panel = INKS["moonlight"]
    column = [card_h - region.box[1] - i * 0.25 * MM for i in range(int(region.box[3] / (0.25 * MM)))]
    drawn = [y for y in column if not near(image.colour(p, centre_x, y), panel, 6)]
    assert (max(drawn) - min(drawn)) / side == pytest.approx(2, abs=0.1)
    row = [region.box[0] + i * 0.25 * MM for i in range(int(region.box[2] / (0.25 * MM)))]
    middle = corners[0, 0][1]  # the line between the rows
    drawn = [x for x in row if not near(image.colour(p, x, middle), panel, 6)]
    assert (max(drawn) - min(drawn)) / side == pytest.approx(3, abs=0.1)


def test_every_pieces_letter_and_symbol_read_at_wcag_aa_on_its_colour():
    region = TEMPLATES["sc-spell"].regions["pattern"]
    for colour in CONTENT["spellcycles-set"].colours:
        ground = INKS[colour.id]
        chosen = legible_on(to_colour(ground), to_colour(INKS[region.dark]), to_colour(INKS[region.light]))
        assert contrast(ground, chosen.hexval().replace("0x", "#")) >= 4.5, colour.id


# --- blanks, references, a user's deck, --only -------------------------------------------------


def test_blank_cards_have_the_labels_to_write_by_and_an_empty_3_by_3_grid(a4):
    pdf = read(a4)
    blanks = [(page, p, text) for page, p, text, kind in printed(pdf) if kind == "blank"]
    assert len(blanks) == 9
    page, p, text = blanks[0]
    for label in (WORDS.name, WORDS.requirements, WORDS.prestige, WORDS.effect):
        assert label in text
    image = Rendered(a4, page)
    grid = TEMPLATES["sc-blank"].regions["grid"]
    x, top, w, h = grid.box
    card_h = TEMPLATES["sc-blank"].size.height
    for r in range(3):
        for c in range(3):
            centre = (x + (c + 0.5) * w / 3, card_h - top - (r + 0.5) * h / 3)
            assert near(image.colour(p, *centre), "#ffffff", 4), "an empty cell to draw in"


def test_each_wizard_gets_the_turn_casting_variants_knucklebone_and_our_rulings(a4):
    pdf = read(a4)
    references = [text for *_, text, kind in printed(pdf) if kind == "reference"]
    one_set = " ".join(references[: len(references) // COPIES])
    for step in ("Refresh", "Renew", "Contribute", "Reap", "Progress"):
        assert step in one_set
    for variant in ("SpellStackers", "Accelerando", "Duel", "Extra Credit", "Double-Plus Extra Credit"):
        assert variant in one_set
    assert "counts 1" in one_set and "counts 2" in one_set and "ace 3" in one_set  # set.yaml's points
    setup = CONTENT["spellcycles-set"]
    colours = {c.id: c.name for c in setup.colours}
    table = one_set[one_set.index(WORDS.components.knucklebone) :]
    for face, colour in setup.knucklebone.items():
        assert f"{face} {colours[colour]}" in table.replace("  ", " ")
    for ruling in CONTENT["rulings"].rulings.values():
        opening = " ".join(ruling.replace("**", "").split()[:6])
        assert opening in one_set, opening
    assert "{" not in one_set
    assert Counter(references)[references[0]] == COPIES


MINE = """kind: spell-cards
cards:
  - name: Tower of Dusk
    pattern:
      - [[red, blue, white], gap]
      - [vacant, [black, yellow]]
    cost: {essence: 2, certificates: 1}
    effect: "Each other wizard gives you one essence; the table settles it."
  - name: Great Wheel
    pattern:
      - [red, yellow, green, blue]
      - [gap, vacant, marked, white]
      - [black, gap, gap, red]
      - [yellow, blue, vacant, green]
    cost: {certificates: 2}
    effect: "Every piece on the field's outer ring goes back to the cauldron."
  - name: Short Row
    pattern:
      - [red, blue, green]
      - [yellow]
    effect: "Gain one essence."
"""


@pytest.mark.slow
def test_a_users_own_spells_print_like_ours_and_only_spells_prints_only_spell_cards(tmp_path):
    root = overlay(tmp_path / "mine", GAME, {"spells-mine.yaml": MINE})
    out = tmp_path / "out"
    result = invoke("build", GAME, "--content", str(root), "--only", "spells", "--out", str(out))
    assert result.exit_code == 0, result.output
    [path] = out.glob("*.pdf")
    pdf = read(path)
    kinds = Counter(kind for *_, kind in printed(pdf))
    assert kinds == {"spell": len(SPELLS) + 3, "back": len(SPELLS) + 3}, "spell cards and their backs, nothing else"
    _, _, text = spell_on(pdf, "Tower of Dusk")
    assert f"{WORDS.requirements}: 2 Essence {WORDS.both} 1 Certificate" in text
    assert "the table settles it" in text
    # by the rule, a stack needs each of its pieces (3 + 2), a vacant space and a gap none
    assert " 5 " in f" {text} "
    _, _, text = spell_on(pdf, "Great Wheel")
    assert " 11 " in f" {text} " and "2 Certificates" in text
    _, _, text = spell_on(pdf, "Short Row")  # a short row ends in gaps
    assert " 4 " in f" {text} " and text.count(WORDS.markers["gap"]) == 2
