"""`pnp check` passes only what `pnp build` can print, and every option has a range: sheets,
titles, glyphs and paper sizes are checked, and each problem names where it was written."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import main
from pnp.paths import CONTENT

GAME = "spells-and-potions"


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.stderr and not isinstance(result.exception, AssertionError | TypeError)
    return result


def overlay_file(tmp_path, name: str, old: str, new: str, game: str = GAME):
    folder = tmp_path / "ov" / game
    folder.mkdir(parents=True, exist_ok=True)
    text = (CONTENT / game / name).read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new)
    (folder / name).write_text(text, encoding="utf-8")
    return tmp_path / "ov", folder / name, text


def shown(path) -> str:
    """A path as problems show it: relative to the working directory."""
    return os.path.relpath(path)


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("command", ["check", "build"])
def test_an_unknown_icon_in_the_score_pad_title_fails_check_and_build_alike(tmp_path, command):
    root, path, text = overlay_file(tmp_path, "score-pad.yaml", "title: Ritual Tournament", 'title: "Ritual :nope:"')
    result = run(command, GAME, "--content", str(root), *(["--out", str(tmp_path / "out")] * (command == "build")))
    assert result.exit_code == 2
    assert f"{shown(path)}:{line_of(text, 'title:')}:8: title: expected an icon from" in result.stderr
    assert "(:nope: is not one)" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_score_pad_heading_too_long_to_fit_is_found_by_check_at_its_line(tmp_path):
    long = "Wizards " * 40
    root, path, text = overlay_file(tmp_path, "score-pad.yaml", "wizards: Wizards", f"wizards: {long}")
    result = run("check", GAME, "--content", str(root))
    assert result.exit_code == 2
    assert (
        f"{shown(path)}:{line_of(text, 'wizards:')}:10: wizards: Tournament score pads: text does not fit"
        in result.stderr
    )


def test_a_3000_word_how_to_is_refused_at_its_line(tmp_path):
    words = " ".join(["potion"] * 3000)
    root, path, text = overlay_file(tmp_path, "score-pad.yaml", 'how_to: "Write', f'how_to: "{words} Write')
    result = run("check", GAME, "--content", str(root))
    assert result.exit_code == 2
    assert f"{shown(path)}:{line_of(text, 'how_to:')}:9: how_to: " in result.stderr


def test_characters_no_font_has_are_named_with_the_card_and_field(tmp_path):
    root, path, text = overlay_file(tmp_path, "magic-cards.yaml", "name: Gladder's Reward", "name: Награда Гладдера 火")
    result = run("check", GAME, "--content", str(root))
    assert result.exit_code == 2
    line = line_of(text, "Награда")
    problem = next(p for p in result.stderr.splitlines() if p.startswith(f"{shown(path)}:{line}:"))
    assert "cards.0.name: Награда Гладдера 火: expected characters the embedded font has" in problem
    assert "got '火' (U+706B) that it cannot draw" in problem  # the Cyrillic is in the body face


def test_a_wrong_type_in_one_card_does_not_hide_an_unknown_icon_in_another(tmp_path):
    root, path, text = overlay_file(tmp_path, "magic-cards.yaml", "count: 2", "count: two")
    text = text.replace("if a :trump: trump was played", "if a :trumpet: trump was played")
    path.write_text(text, encoding="utf-8")
    result = run("check", GAME, "--content", str(root))
    assert result.exit_code == 2
    assert f"{shown(path)}:{line_of(text, 'count: two')}:12: cards.1.count: " in result.stderr
    assert f"{shown(path)}:{line_of(text, ':trumpet:')}:13: cards.2.effect: " in result.stderr
    assert "(:trumpet: is not one; did you mean :trump:?)" in result.stderr


@pytest.mark.parametrize(
    "option, value, message",
    [
        ("--bleed", "nan", "expected millimetres from 0 to 10, got nan"),
        ("--bleed", "11", "expected millimetres from 0 to 10, got 11"),
        ("--bleed", "-inf", "expected millimetres from 0 to 10, got -inf"),
        ("--offset", "nan,0", "expected X,Y each from -10 to 10 mm, got 'nan,0'"),
        ("--offset", "0,inf", "expected X,Y each from -10 to 10 mm, got '0,inf'"),
        ("--offset", "1e300,0", "expected X,Y each from -10 to 10 mm, got '1e300,0'"),
        ("--offset", "1,2,3", "expected X,Y in mm such as 0.5,-1, got '1,2,3'"),
    ],
)
@pytest.mark.parametrize("command", ["check", "build"])
def test_numeric_options_have_ranges_that_check_and_build_share(tmp_path, command, option, value, message):
    result = run(command, GAME, option, value, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert message in result.stderr
    assert not (tmp_path / "out").exists()


def test_check_takes_a_builds_options_and_lays_out_with_them(tmp_path):
    """A build's command line checks as it is: check on the one paper given, with its layout."""
    args = [GAME, "--paper", "letter", "--backs", "fold", "--gutters", "--bleed", "0", "--only", "magic"]
    result = run("check", *args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    assert (
        result.output.splitlines()[-1]
        == "checked 1 game: every text fitted, every page laid out on US Letter with --backs fold"
    )
    assert not (tmp_path / "out").exists()
    assert run("build", *args, "--out", str(tmp_path / "out")).exit_code == 0


def test_only_prints_the_named_components_into_a_file_of_their_own(tmp_path):
    out = tmp_path / "out"
    result = run("build", GAME, "--only", "magic", "--only", "reference", "--backs", "none", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    pdf = out / f"{GAME}-a4-fronts-magic-reference.pdf"
    labels = [" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages]
    assert len(labels) == 2  # 12 cards and 4 reference cards share two sheets of 9
    assert "Spells and Potions cards · fronts · page 1 of 2" in labels[0]
    assert "Spells and Potions cards + Reference cards · fronts · page 2 of 2" in labels[1]
    assert not (out / f"{GAME}-a4-fronts.pdf").exists(), "a partial print never takes the whole set's name"


def test_only_with_an_unknown_component_suggests_one(tmp_path):
    result = run("build", GAME, "--only", "magik", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "got 'magik'; did you mean magic?" in result.stderr
    assert not (tmp_path / "out").exists()


def test_only_skips_a_game_without_that_component(tmp_path):
    result = run("build", "--only", "tiles", "--backs", "none", "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    assert "skipped spells-and-potions: it has none of tiles" in result.output
    assert sorted(p.name for p in (tmp_path / "out").glob("*.pdf")) == ["magic-spell-a4-fronts-tiles.pdf"]


@pytest.mark.parametrize("field", ["no_backs", "fold"])
def test_check_without_backs_finds_what_only_one_way_of_printing_backs_prints(tmp_path, field):
    """The setup page says how to print the backs, in words that differ with --backs: a `pnp check`
    with no --backs lays out every way, so it refuses a text only `--backs none` (or fold) prints,
    as that build does."""
    backs = {"no_backs": "none", "fold": "fold"}[field]
    long = "Print it single-sided, please. " * 60
    root, _, _ = overlay_file(tmp_path, "setup.yaml", f"{field}: Print", f"{field}: {long}Print", "magic-spell")
    assert run("check", "magic-spell", "--content", str(root), "--backs", "duplex-long").exit_code == 0
    checked = run("check", "magic-spell", "--content", str(root))
    built = run("build", "magic-spell", "--content", str(root), "--backs", backs, "--out", str(tmp_path / "out"))
    assert checked.exit_code == built.exit_code == 2
    assert checked.stderr == built.stderr and "setup.yaml:" in checked.stderr, checked.stderr
    assert not (tmp_path / "out").exists()
