"""Magecraft's printed set, read back from the PDF on A4 and Letter, duplex and fold: every spell
card (two copies of each in a copy of the game, and the second copy for 3-4 wizards) at poker size
with its mastered side behind it; the reference cards and our rulings a set per wizard; every gem
in its colour's count, backed by itself; a character board a page, a poker card fitting each
spellbook slot. A card rendered to pixels shows its cast gems in their colours, left to right, the
first golden on its mastered side, and each effect icon once with the number of times it resolves
beside it. Every
character on the cards and boards is 7 pt or more."""

from __future__ import annotations

from collections import Counter

import pytest

from pnp.games.magecraft.gem_region import layout
from pnp.units import MM
from tests.conftest import bundled, invoke
from tests.support.pdfcards import BuiltPdf, read
from tests.test_spellcycles_cards import Rendered, near

GAME = "magecraft"
OPENED = bundled(GAME)
CONTENT, TEMPLATES = OPENED.content, OPENED.templates
WORDS = CONTENT["words"]
RULES = CONTENT["magecraft-set"]
SPELLS = CONTENT["spell-cards"].cards
NAMES = [card.name for card in SPELLS]
INKS = TEMPLATES["mc-card"].colours
POKER = sorted((63.5, 88.9))
GEM = TEMPLATES["mc-gem"].size.width / MM
BOARD = TEMPLATES["mc-board"]
REFERENCE_TITLES = [card.title for card in CONTENT["reference-card"].cards] + [WORDS.rulings, WORDS.rulings_more]
GAME_COPIES = 2  # the copy for 2 wizards and the second copy 3-4 need, both in the whole set


def size_mm(p) -> list[float]:
    return sorted((p.w / MM, p.h / MM))


def kind_of(text: str) -> str:
    """What a printed poker card is, by its words: a spell (or its mastered side), a reference card
    or the references' back."""
    if any(text.startswith(title) for title in REFERENCE_TITLES):
        return "reference"
    if any(text.startswith(name) for name in NAMES):
        return "mastered" if WORDS.mastered in text else "spell"
    return "back"


def poker_cards(pdf: BuiltPdf):
    """(page, placement, text, kind) for every poker-size card in the file."""
    for page in range(len(pdf)):
        for p in pdf.placements(page):
            if size_mm(p) == pytest.approx(POKER, abs=0.05):
                text = pdf.text_in(page, p.rect)
                yield page, p, text, kind_of(text)


def spell_name(text: str) -> str:
    return max((name for name in NAMES if text.startswith(name)), key=len)


def reference_set() -> list[str]:
    """The titles of one wizard's reference cards, as the set deals them."""
    deck = next(c for c in OPENED.every_component() if c.id == "references")
    faces = deck.faces[: len(deck.faces) // CONTENT["reference-card"].copies]
    return [face.value("title").text for face in faces]


OPENED_REFERENCES = reference_set()


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("backs", ["duplex-long", "fold"])
def test_every_card_gem_and_board_prints_at_its_size_in_its_count(built_pdf, paper, backs):
    pdf = built_pdf(game=GAME, paper=paper, backs=backs)
    counts = Counter(kind for *_, kind in poker_cards(pdf))
    spells = len(SPELLS) * RULES.copies * GAME_COPIES
    references = len(OPENED_REFERENCES) * CONTENT["reference-card"].copies
    assert counts == {"spell": spells, "mastered": spells, "reference": references, "back": references}
    gems = [
        p for page in range(len(pdf)) for p in pdf.placements(page) if size_mm(p) == pytest.approx([GEM, GEM], abs=0.05)
    ]
    assert len(gems) == 2 * sum(g.count for g in RULES.gems) * GAME_COPIES  # each backed by itself
    boards = [
        (page, p)
        for page in range(len(pdf))
        for p in pdf.placements(page)
        if size_mm(p) == pytest.approx(sorted((256, 178)), abs=0.05)
    ]
    assert len(boards) == len(CONTENT["characters"].characters)
    assert len({page for page, _ in boards}) == len(boards), "one board a page"


def test_each_wizard_gets_the_turn_the_icons_the_larger_tables_and_our_rulings():
    titles = OPENED_REFERENCES
    assert titles[: len(CONTENT["reference-card"].cards)] == [card.title for card in CONTENT["reference-card"].cards]
    assert titles[len(CONTENT["reference-card"].cards)] == WORDS.rulings
    deck = next(c for c in OPENED.every_component() if c.id == "references")
    bodies = " ".join(face.value("body").text for face in deck.faces[: len(titles)])
    for ruling in CONTENT["rulings"].rulings.values():
        assert ruling in bodies


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_spells_back_is_its_mastered_side_behind_it_on_a_long_edge_flip(built_pdf, paper):
    pdf = built_pdf(game=GAME, paper=paper, backs="duplex-long")
    width = pdf.size(0)[0]
    checked = 0
    for page, p, text, kind in poker_cards(pdf):
        if kind != "spell":
            continue
        x0, y0, x1, y1 = p.rect
        behind = [q for q in pdf.placements(page + 1) if abs(q.x - (width - x1)) < 0.01 and abs(q.y - y0) < 0.01]
        assert len(behind) == 1, (page, spell_name(text))
        back = pdf.text_in(page + 1, behind[0].rect)
        assert kind_of(back) == "mastered" and spell_name(back) == spell_name(text), (text, back)
        checked += 1
    assert checked == len(SPELLS) * RULES.copies * GAME_COPIES


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_folded_each_page_holds_the_mastered_sides_of_its_spells(built_pdf, paper):
    pdf = built_pdf(game=GAME, paper=paper, backs="fold")
    by_page: dict[int, Counter] = {}
    for page, _, text, kind in poker_cards(pdf):
        if kind in ("spell", "mastered"):
            by_page.setdefault(page, Counter())[(kind, spell_name(text))] += 1
    assert by_page
    for page, found in by_page.items():
        fronts = Counter({name: n for (kind, name), n in found.items() if kind == "spell"})
        backs = Counter({name: n for (kind, name), n in found.items() if kind == "mastered"})
        assert fronts == backs, page


def test_starting_and_every_academy_spells_wear_their_tab(built_pdf):
    pdf = built_pdf(game=GAME, paper="a4", backs="duplex-long")
    for _, _, text, kind in poker_cards(pdf):
        if kind not in ("spell", "mastered"):
            continue
        name = spell_name(text)
        assert (WORDS.starting in text) == (name in RULES.starting), name
        assert (WORDS.basic in text) == (name in RULES.basic), name


# --- a card read from its pixels -----------------------------------------------------------


def gem_centres(count: int, region: str = "cast", template: str = "mc-spell"):
    """Each gem's centre and diameter in the card's upright frame, as the gems region lays out a row."""
    spec = TEMPLATES[template].regions[region]
    x, top, w, h = spec.box
    gem, pitch = layout(1, count, w, h, spec)
    card_h = TEMPLATES[template].size.height
    cy = card_h - top - h / 2
    return [(x + gem / 2 + k * pitch, cy) for k in range(count)], gem


def spell_placement(pdf: BuiltPdf, name: str, kind: str):
    return next((page, p) for page, p, text, k in poker_cards(pdf) if k == kind and spell_name(text) == name)


def icon_columns(image: Rendered, p, ink: str) -> int:
    """How many point-wide columns of the effects box hold the icon's ink, along its first row."""
    x, top, w, h = TEMPLATES["mc-spell"].regions["effects"].box
    card_h = TEMPLATES["mc-spell"].size.height
    ys = [card_h - top - h * k / 20 for k in range(1, 20)]
    return sum(any(near(image.colour(p, x + i, y, patch=0), ink, tolerance=30) for y in ys) for i in range(int(w)))


def test_fireballs_cast_gems_are_fire_fire_wild_and_it_strikes_three_times(built):
    path = built(game=GAME, paper="a4", backs="duplex-long")
    pdf = read(path)
    fireball = next(card for card in SPELLS if card.name == "Fireball")
    assert fireball.cast == ["fire", "fire", "wild"] and fireball.effects.attack == 3
    page, p = spell_placement(pdf, "Fireball", "spell")
    image = Rendered(path, page)
    centres, gem = gem_centres(3)
    fills = [image.colour(p, cx - 0.32 * gem, cy) for cx, cy in centres]
    assert [near(f, INKS[ink]) for f, ink in zip(fills, ("fire", "fire", "wild"), strict=True)] == [True] * 3, fills
    # the Wild gem's icon (0.42 of the gem, above its centre) is drawn in the four basic colours:
    # its top-right quarter is fire's, its bottom-left earth's
    wild_x, wild_y = centres[2]
    symbol = 0.42 * gem
    icon_x, icon_y = wild_x, wild_y - 0.02 * gem + symbol / 2
    reach = 0.25 * symbol  # half-way out along the diagonal, clear of the white star
    assert near(image.colour(p, icon_x + reach, icon_y + reach, patch=0), "#d9480f", 40)
    assert near(image.colour(p, icon_x - reach, icon_y - reach, patch=0), "#37b24d", 40)
    # one bolt, as Magic Missile has: the count is the number beside it, not more bolts
    page_m, p_m = spell_placement(pdf, "Magic Missile", "spell")
    bolt = "#f08c00"
    three, one = icon_columns(image, p, bolt), icon_columns(Rendered(path, page_m), p_m, bolt)
    assert one > 0 and 0.8 <= three / one <= 1.25, (three, one)


def printed_counts(pdf: BuiltPdf, page: int, p) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The numbers printed in a card's effects box, top row first, each with its bounds in the
    card's upright frame."""
    x, top, w, h = TEMPLATES["mc-spell"].regions["effects"].box
    bottom = TEMPLATES["mc-spell"].size.height - top - h
    rows: dict[int, list[dict]] = {}
    for c in pdf.chars_on(page, p):
        if c["text"].isdigit() and x <= c["x0"] and c["x1"] <= x + w and bottom <= c["y0"] and c["y1"] <= bottom + h:
            rows.setdefault(round(c["y0"]), []).append(c)
    out = []
    for y in sorted(rows, reverse=True):
        chars = sorted(rows[y], key=lambda c: c["x0"])
        bounds = (chars[0]["x0"], min(c["y0"] for c in chars), chars[-1]["x1"], max(c["y1"] for c in chars))
        out.append(("".join(c["text"] for c in chars), bounds))
    return out


def test_every_effect_icon_carries_its_count_as_a_number_beside_it(built):
    """The issue: "Effect icons carry their count as a number, so a card reads without the
    reference card." Every spell card, front and mastered side, prints each effect's count
    (1 and above) as a number in its effects box, a row for each icon in the printed order, the
    icon's ink just left of the number on the number's own line."""
    path = built(game=GAME, paper="a4", backs="duplex-long")
    pdf = read(path)
    parchment = TEMPLATES["mc-card"].colours["parchment"]
    x = TEMPLATES["mc-spell"].regions["effects"].box[0]
    images: dict[int, Rendered] = {}
    checked = Counter()
    for page, p, text, kind in poker_cards(pdf):
        if kind not in ("spell", "mastered"):
            continue
        card = SPELLS[NAMES.index(spell_name(text))]
        counts = printed_counts(pdf, page, p)
        assert [n for n, _ in counts] == [str(n) for n in card.effects.counts().values()], (card.name, counts)
        image = images.setdefault(page, Rendered(path, page))
        for number, (x0, y0, _, y1) in counts:
            # the icon: ink other than the card's parchment between the box's left and the number
            band = [y0 + (y1 - y0) * k / 4 for k in (1, 2, 3)]
            left = [image.colour(p, x + i, y, patch=0) for i in range(int(x0 - x)) for y in band]
            inked = sum(not near(colour, parchment, tolerance=30) for colour in left)
            assert inked >= 6, (card.name, number, inked)
        checked[kind] += 1
    cards = len(SPELLS) * RULES.copies * GAME_COPIES
    assert checked == {"spell": cards, "mastered": cards}


def test_a_mastered_spells_first_gem_is_golden_and_the_rest_keep_their_colour(built):
    path = built(game=GAME, paper="a4", backs="duplex-long")
    pdf = read(path)
    page, p = spell_placement(pdf, "Fireball", "mastered")
    image = Rendered(path, page)
    centres, gem = gem_centres(3)
    fills = [image.colour(p, cx - 0.32 * gem, cy) for cx, cy in centres]
    assert near(fills[0], INKS["golden"]) and near(fills[1], INKS["fire"]) and near(fills[2], INKS["wild"]), fills


def test_every_gem_colour_carries_its_letter_and_symbol_in_its_count():
    deck = next(c for c in OPENED.every_component() if c.id == "gems")
    printed = Counter(face.value("gem").text for face in deck.faces)
    assert printed == {f"{g.id} {g.letter} {g.symbol}": g.count for g in RULES.gems}
    assert deck.backs == deck.faces


# --- the boards -----------------------------------------------------------------------------


def slots(pdf: BuiltPdf, page: int) -> list[tuple[float, float, float, float]]:
    """The rectangles drawn on a board page that are a spellbook slot's size or so, in mm (x0, y0, x1, y1)."""
    out = []
    for r in pdf.plumber.pages[page].rects:
        w, h = (r["x1"] - r["x0"]) / MM, (r["bottom"] - r["top"]) / MM
        if 85 < max(w, h) < 100 and 60 < min(w, h) < 75:
            out.append((r["x0"] / MM, r["top"] / MM, r["x1"] / MM, r["bottom"] / MM))
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_board_fits_its_page_and_a_poker_card_fits_each_spellbook(built_pdf, paper):
    pdf = built_pdf(game=GAME, paper=paper, backs="duplex-long")
    pages = [
        page
        for page in range(len(pdf))
        for p in pdf.placements(page)
        if size_mm(p) == pytest.approx(sorted((256, 178)), abs=0.05)
    ]
    names = [c.name for c in CONTENT["characters"].characters]
    assert len(pages) == len(names)
    margin = 5 * MM
    for page, name in zip(pages, names, strict=True):
        width, height = pdf.size(page)
        [board] = [p for p in pdf.placements(page) if size_mm(p) == pytest.approx(sorted((256, 178)), abs=0.05)]
        assert margin <= board.x and board.x + board.w <= width - margin
        assert margin <= board.y and board.y + board.h <= height - margin
        text = pdf.text_in(page, board.rect)
        assert name in text and all(phase in text for phase in WORDS.phases), text
        books = slots(pdf, page)
        assert len(books) == RULES.spellbooks
        for x0, y0, x1, y1 in books:
            short, long = sorted((x1 - x0, y1 - y0))
            assert short >= 63.5 and long >= 88.9, (short, long)


def drawn_on_board(pdf: BuiltPdf, page: int, board) -> list[tuple[float, float, float, float]]:
    """Every rectangle, curve and line drawn on the board's page, as bounds in the board's upright
    frame (points, origin at its bottom-left)."""
    plumbed = pdf.plumber.pages[page]
    height = plumbed.height
    shapes = [*plumbed.rects, *plumbed.curves, *plumbed.lines]
    return [board.upright((o["x0"], height - o["bottom"], o["x1"], height - o["top"])) for o in shapes]


def overlap(a, b, slack: float = 0.5) -> bool:
    """Whether two bounds share more than a hairline (slack points) in both directions."""
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def test_every_spellbook_slot_has_clear_room_on_its_left_for_the_spells_tucked_there(built_pdf):
    """The rules: "Place the spell on LEFT of one of the your spellbooks", tucked under the spell
    on its right (words.spellbook_note); the issue: "the board leaves room for learned spells
    tucked to the left of each spellbook slot (slot 1 sits at the board's edge)". Left of every
    slot, slot 1's too, the board keeps a clear strip, at least as wide as a tucked spell shows
    its first cast gem (the gem paid first), as tall as the slot: inside the board's safe area,
    no other area, slot, text or line in it, only the strip's own ground and words."""
    pdf = built_pdf(game=GAME, paper="a4", backs="duplex-long")
    [first_gem], gem = gem_centres(1)
    need = first_gem[0] + gem / 2  # from a card's left edge to its first cast gem's right edge
    size = (BOARD.size.width, BOARD.size.height)
    checked = 0
    for page in range(len(pdf)):
        for board in pdf.placements(page):
            if size_mm(board) != pytest.approx(sorted((256, 178)), abs=0.05):
                continue
            drawn = drawn_on_board(pdf, page, board)
            whole = [d for d in drawn if d[2] - d[0] > size[0] * 0.9]  # the board's ground and frame
            books = sorted(
                (d for d in drawn if 63.5 * MM <= d[2] - d[0] < 75 * MM and 88.9 * MM <= d[3] - d[1] < 100 * MM),
                key=lambda d: d[0],
            )
            assert len(books) == RULES.spellbooks, books
            for n, (x0, y0, _, y1) in enumerate(books, 1):
                room = (x0 - need, y0, x0, y1)
                assert room[0] >= BOARD.safe, (n, room[0] / MM)
                # the strip's own ground: from the room's left or further, up to the slot, as tall
                ends = (abs(d[2] - x0) < 0.5 and abs(d[1] - y0) < 0.5 and abs(d[3] - y1) < 0.5 for d in drawn)
                strips = [d for d, end in zip(drawn, ends, strict=True) if end and d[0] <= room[0] + 0.5]
                others = [d for d in drawn if d not in whole and d not in strips and overlap(d, room)]
                assert strips and not others, (n, [tuple(round(v / MM, 1) for v in d) for d in others])
                words = "".join(
                    c["text"]
                    for c in pdf.chars_on(page, board)
                    if overlap((c["x0"], c["y0"], c["x1"], c["y1"]), room, slack=0)
                )
                assert words.replace(" ", "") == WORDS.tuck.replace(" ", ""), (n, words)
                checked += 1
    assert checked == RULES.spellbooks * len(CONTENT["characters"].characters)


def test_a_boards_hp_area_has_a_slot_for_each_starting_hp_gem_and_the_score_runs_to_the_win():
    [boards] = [c for c in OPENED.every_component() if c.id == "boards"]
    assert len(boards.faces) == len(CONTENT["characters"].characters)
    for board in boards.faces:
        hp = board.value("hp").text.replace("\n", " | ").split(" | ")
        basic = [g for g in RULES.gems if g.basic]
        assert Counter(hp) == {f"{g.id} {g.letter} {g.symbol}": RULES.hp_each for g in basic}
        assert board.value("score").text == f"1-{RULES.score_to_win} start {RULES.score_to_win}"


# --- legibility -----------------------------------------------------------------------------


def test_every_character_on_the_cards_gems_and_boards_is_7_pt_or_larger(built_pdf):
    pdf = built_pdf(game=GAME, paper="a4", backs="duplex-long")
    seen = Counter()
    for page in range(len(pdf)):
        for p in pdf.placements(page):
            sizes = [c["size"] for c in pdf.chars_on(page, p) if c["text"].strip()]
            if sizes:
                seen[round(p.w / MM)] += 1
                assert min(sizes) >= 7 - 0.01, (page, pdf.text_in(page, p.rect)[:40], min(sizes))
    assert len(seen) >= 3  # cards, gems and boards all read


def test_only_spells_and_gems_leaves_out_the_second_copy(tmp_path):
    result = invoke("build", GAME, "--only", "spells", "--only", "gems", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    [path] = tmp_path.glob("*.pdf")
    pdf = read(path)
    counts = Counter(kind for *_, kind in poker_cards(pdf))
    assert counts == {"spell": len(SPELLS) * RULES.copies, "mastered": len(SPELLS) * RULES.copies}


def test_a_character_of_the_users_own_gets_a_board_of_its_own(tmp_path):
    """A fifth character in a user's characters.yaml prints a fifth board: the boards follow the content."""
    import yaml

    from pnp.paths import CONTENT as BUNDLED

    characters = yaml.safe_load((BUNDLED / GAME / "characters.yaml").read_text())
    mine = {"name": "Pell Underhill", "title": "Keeper of the Lower Stacks",
            "cantrip": {"name": "Dust Mote", "gem": "darkness", "effects": {"vanish": 1}}}  # fmt: skip
    characters["characters"].append(mine)
    folder = tmp_path / "mine" / GAME
    folder.mkdir(parents=True)
    (folder / "characters.yaml").write_text(yaml.safe_dump(characters, sort_keys=False))
    result = invoke("build", GAME, "--only", "boards", "--content", str(tmp_path / "mine"), "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    [path] = tmp_path.glob("*.pdf")
    pdf = read(path)
    names = [c["name"] for c in characters["characters"]]
    boards = [
        page
        for page in range(len(pdf))
        for p in pdf.placements(page)
        if size_mm(p) == pytest.approx(sorted((256, 178)), abs=0.05)
    ]
    assert len(boards) == 5
    on_pages = [next(name for name in names if name in pdf.text(page)) for page in boards]
    assert on_pages == names
