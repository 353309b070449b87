"""The printed Magic Spell set, read back from the PDF: tiles, spells, spirit tracks, references."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.magic_spell.rules import tile_mix
from pnp.paths import CONTENT
from tests.support.pdfcards import MM, BuiltPdf

TILE = 19 * MM
TILES = "Ingredient tiles"  # the start of the tile pages' label, which goes on with the counts


@pytest.fixture(scope="module")
def content():
    return load_game(game("magic-spell"), [CONTENT])


@pytest.fixture(scope="module")
def pdf(built_pdf):
    return built_pdf(game="magic-spell", paper="a4", backs="duplex-long")


def cards_on(pdf: BuiltPdf, component: str, side: str = "fronts"):
    """(page, placement, text) for every card on the pages labelled with that component (its title
    starts so) and side."""
    for page in range(len(pdf)):
        label = pdf.text(page)
        if f"· {component}" in label and f" · {side}" in label:
            for p in pdf.placements(page):
                yield page, p, pdf.text_in(page, p.rect)


def test_the_bundled_deck_has_at_least_40_distinct_words_of_5_to_13_letters(content):
    words = [card.word.upper() for card in content["spell-cards"].cards]
    assert len(words) >= 40 and len(set(words)) == len(words)
    assert all(5 <= len(w) <= 13 for w in words)
    modes = Counter(card.mode for card in content["spell-cards"].cards)
    assert modes["always"] and modes["cast"], "some spells are always on, some are cast"
    assert set(card.credits for card in content["spell-cards"].cards) == {1, 2, 3}


def test_tiles_are_19_mm_squares_in_the_mix_derived_from_the_deck(pdf, content):
    tiles = list(cards_on(pdf, TILES))
    setup = content["magic-spell-set"]
    assert len(tiles) == setup.letter_tiles + len(setup.philosophers_stones)
    for _, p, _ in tiles:
        assert abs(p.w - TILE) < 0.1 * MM and abs(p.h - TILE) < 0.1 * MM
    letters = Counter(text for _, _, text in tiles if len(text) == 1)
    expected = tile_mix([c.word for c in content["spell-cards"].cards], setup.letter_tiles)
    assert letters == expected
    words = content["words"]
    stone_text = f"{words.stone_variant} {words.stone}"
    assert sum(1 for _, _, text in tiles if text == stone_text) == 3, "three philosopher's stones"


def test_letters_that_turn_into_others_are_underlined_and_no_others(pdf):
    for page, p, text in cards_on(pdf, TILES):
        x0, y0, x1, y1 = p.rect
        bars = [
            r
            for r in pdf.plumber.pages[page].rects
            if x0 <= r["x0"]
            and r["x1"] <= x1
            and y0 <= pdf.size(page)[1] - r["bottom"]
            and pdf.size(page)[1] - r["top"] <= y1
            and abs(r["width"] - 7 * MM) < 0.2 * MM
            and abs(r["height"] - 1 * MM) < 0.2 * MM
        ]
        assert bool(bars) == (text in ("M", "W", "N", "Z")), f"tile {text}"


def test_every_tile_has_a_back_and_the_backs_are_all_alike(pdf):
    fronts = list(cards_on(pdf, TILES))
    backs = list(cards_on(pdf, TILES, "backs"))
    assert len(backs) == len(fronts)
    assert len({p.form for _, p, _ in backs}) == 1


def test_each_spell_card_shows_its_word_and_credits(pdf, content):
    printed = list(cards_on(pdf, "Spell cards"))
    cards = content["spell-cards"].cards
    assert len(printed) == len(cards)
    for card, (page, p, text) in zip(cards, printed, strict=True):
        assert card.word.upper() in text
        # the credits badge in the top left corner; the seal top right shows a cast spell's cost
        badge = "".join(c["text"] for c in pdf.chars_on(page, p) if c["x1"] < 20 * MM and c["y0"] > p.h - 22 * MM)
        assert badge in (f"{card.credits}CREDIT", f"{card.credits}CREDITS"), badge
        assert ("ALWAYS ON" in text) == (card.mode == "always")
    assert len(list(cards_on(pdf, "Spell cards", "backs"))) == len(cards)


def test_players_get_spirit_tracks_from_0_to_15_and_two_turn_references(pdf, content):
    tracks = [text for _, _, text in cards_on(pdf, "Spirit tracks")]
    references = [text.replace("\n", " ") for _, _, text in cards_on(pdf, "Turn references")]
    assert len(tracks) == content["magic-spell-set"].players == 4
    assert len(references) == 2 * content["reference-card"].copies
    for track in tracks:
        squashed = track.replace(" ", "")
        assert "0123" in squashed and "12131415" in squashed, "the track runs 0 to 15"
    turns = [t for t in references if "Your turn" in t]
    between = [t for t in references if "Between turns" in t]
    assert len(turns) == len(between) == content["reference-card"].copies
    for reference in turns:
        for action in ("Weave", "Cast", "Scrounge", "Research", "Rest"):
            assert action in reference
    for reference in between:
        for heading in ("Trading", "Grading", "Who wins"):
            assert heading in reference
        assert "The most credits in a spellbook wins, whoever called for grading" in reference
        for variant in ("Heavy Courseload", "Low Enrollment", "Philosopher's Stone", "Open Research"):
            assert variant in reference


def build_with(tmp_path, files: dict[str, str], *args):
    from click.testing import CliRunner

    from pnp.cli import main

    folder = tmp_path / "mine" / "magic-spell"
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    result = CliRunner().invoke(
        main,
        [
            "build",
            "magic-spell",
            "--backs",
            "none",
            "--content",
            str(tmp_path / "mine"),
            "--out",
            str(tmp_path / "out"),
            *args,
        ],
    )
    return result, tmp_path / "out" / "magic-spell-a4-fronts.pdf"


MY_WORDS = [
    "jejune",
    "jujitsu",
    "kowtow",
    "zigzag",
    "hobnob",
    "whimsy",
    "fjord",
    "knack",
    "bivouac",
    "sphinx",
    "quagmire",
    "pizzazz",
    "jackal",
    "vortex",
    "blizzard",
    "mystique",
    "oxygen",
    "jukebox",
]


MY_TILES = 100  # a deck as small as MY_WORDS wants a smaller pool than ours, or no letter is rare


def my_set() -> str:
    """The bundled set.yaml with MY_TILES letter tiles."""
    text = (CONTENT / "magic-spell" / "set.yaml").read_text()
    return re.sub(r"(?m)^letter_tiles: \d+", f"letter_tiles: {MY_TILES}", text)


def spells_file(words) -> str:
    cards = "".join(
        f'  - word: {w}\n    definition: Mine.\n    mode: always\n    effect: "Gain 1 **spirit** when you rest."\n'
        for w in words
    )
    return "kind: spell-cards\ncards:\n" + cards


@pytest.mark.slow
def test_a_users_own_deck_gets_its_own_tile_mix_and_credits_by_the_rule(tmp_path, content):
    from pnp.games.magic_spell.rules import CreditRule, credits

    result, path = build_with(tmp_path, {"spells.yaml": spells_file(MY_WORDS), "set.yaml": my_set()})
    assert result.exit_code == 0, result.stderr
    mine = BuiltPdf(path)
    letters = Counter(text for _, _, text in cards_on(mine, TILES) if len(text) == 1)
    assert letters == tile_mix(MY_WORDS, MY_TILES)
    assert letters != tile_mix([c.word for c in content["spell-cards"].cards], MY_TILES)
    rule = CreditRule(**content["magic-spell-set"].credits.model_dump())
    for word, (_, _, text) in zip(MY_WORDS, cards_on(mine, "Spell cards"), strict=True):
        assert f"{credits(word, letters, rule)} CREDIT" in text and word.upper() in text


def test_added_spells_that_move_a_bundled_spells_credits_say_which_and_how_to_fix_it(tmp_path, content):
    from pnp.games.magic_spell.rules import CreditRule, credits

    added = ["jejune", "jujitsu", "kowtow", "zigzag"]
    cards = content["spell-cards"].cards
    rule = CreditRule(**content["magic-spell-set"].credits.model_dump())
    mix = tile_mix([c.word for c in cards] + added, content["magic-spell-set"].letter_tiles)
    moved = [c.word for c in cards if c.credits != credits(c.word, mix, rule)]
    result, path = build_with(tmp_path, {"house-spells.yaml": spells_file(added)})
    if not moved:
        assert result.exit_code == 0
        return
    assert result.exit_code == 2 and not path.exists()
    named = [line for line in result.stderr.splitlines() if "by the credit rule" in line]
    assert len(named) == len(moved)
    assert all("spells.yaml" in line and "leave `credits` out" in line for line in named)


def test_the_spirit_track_marks_its_starting_space(pdf):
    import pypdfium2 as pdfium

    scale = 3
    for page, p, text in cards_on(pdf, "Spirit tracks and turn references"):
        if "SPIRIT" not in text:
            continue
        image = pdfium.PdfDocument(str(pdf.path))[page].render(scale=scale).to_pil().convert("RGB")
        height = pdf.size(page)[1]
        digits = {}
        w, h = (p.w, p.h) if p.turns % 2 == 0 else (p.h, p.w)  # the card may lie across the page
        for c in pdf.chars_on(page, p):
            if 0 <= c["x0"] <= w and h * 0.2 <= c["y0"] <= h * 0.8 and c["size"] > 12:
                digits.setdefault(c["text"], []).append(c)
        lone = lambda d: [
            c
            for c in digits[d]
            if not any(  # noqa: E731
                o["text"] == "1" and abs(o["y0"] - c["y0"]) < 1 and 0 < c["x0"] - o["x0"] < c["size"]
                for o in digits.get("1", [])
            )
        ]
        (five,), (four,) = lone("5"), lone("4")
        at = lambda x, y: (int(x * scale), int((height - y) * scale))  # noqa: E731
        left_of = lambda c: image.getpixel(at(*p.to_page(c["x0"] - 4, c["y0"] + 2)))  # noqa: E731
        assert left_of(five) != left_of(four), "the start space stands out"
        r, g, b = left_of(five)
        assert r > g > b, "gold, the highlight colour"
