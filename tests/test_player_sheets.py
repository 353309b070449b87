"""`pnp build --sheets N`: as many player sheets as players (Merchants' shoppe sheets, Magic
Spell's spirit tracks), read back from the PDF; a game without them refuses the option."""

from __future__ import annotations

import re

import pytest

from pnp.build import open_game
from pnp.components.kinds import Deck
from pnp.gamedef import game, games
from pnp.paths import CONTENT
from tests.conftest import invoke
from tests.support.pdfcards import MM, BuiltPdf


def title_of(game_id: str, component_id: str) -> str:
    return next(c.title for c in open_game(game(game_id), [CONTENT]).every_component() if c.id == component_id)


def test_merchants_prints_one_shoppe_sheet_per_player_each_on_its_own_sheet_of_paper(tmp_path):
    result = invoke("build", "merchants-of-magick", "--sheets", "3", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    pdf = BuiltPdf(tmp_path / "merchants-of-magick-a4-duplex-3-sheets.pdf")
    title = title_of("merchants-of-magick", "sheets")
    label = re.compile(r"Merchants of Magick · (.+?) · (?:([^·]+?) · )?page \d+ of \d+")
    labels = {i: label.search(pdf.text(i)).groups() for i in range(len(pdf)) if not pdf.placements(i)}
    sheets = [i for i, named in labels.items() if named == (title, None)]
    assert len(sheets) == 3
    for page in sheets:  # the front of a sheet of paper, its back left blank
        assert page % 2 == 0 and labels[page + 1] == (title, "blank back")
    assert f"{title} 3 " in pdf.text(0), "the setup page counts them"


def test_magic_spell_prints_a_spirit_track_per_player(tmp_path):
    result = invoke("build", "magic-spell", "--sheets", "2", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    pdf = BuiltPdf(tmp_path / "magic-spell-a4-duplex-2-sheets.pdf")
    size = open_game(game("magic-spell"), [CONTENT]).templates["ms-spirit"].size
    long = max(size.width, size.height)
    tracks = [p for i in range(len(pdf)) for p in pdf.placements(i) if abs(max(p.w, p.h) - long) < 0.1 * MM]
    assert len(tracks) == 2


def test_with_no_games_named_sheets_applies_to_the_games_that_have_them(tmp_path):
    result = invoke("build", "--sheets", "2", "--only", "setup", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    expected = {f"{g.id}-a4-duplex{'-2-sheets' if g.player_sheets else ''}-setup.pdf" for g in games().values()}
    assert {p.name for p in tmp_path.glob("*.pdf")} == expected


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["merchants-of-magick", "--sheets", "0"], "expected a whole number from 1 to 50, got 0"),
        (["merchants-of-magick", "--sheets", "51"], "expected a whole number from 1 to 50, got 51"),
        (["merchants-of-magick", "--sheets", "two"], "expected a whole number from 1 to 50, got 'two'"),
        (["spells-and-potions", "--sheets", "2"], "spells-and-potions has no player sheets to print"),
    ],
)
def test_a_bad_sheets_count_exits_2_naming_the_option(tmp_path, args, says):
    result = invoke("build", *args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "--sheets" in result.stderr and says in result.stderr, result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("definition", [g for g in games().values() if g.player_sheets], ids=lambda g: g.id)
def test_a_games_player_sheets_name_a_component_of_its_set_and_follow_sheets(definition):
    counted = [
        c
        for n in (None, 7)
        for c in open_game(definition, [CONTENT], sheets=n).every_component()
        if c.id == definition.player_sheets
    ]
    default, seven = (len(c.faces) if isinstance(c, Deck) else c.pages for c in counted)
    assert seven == 7 and default >= 1
