"""Bad content in a `--content` overlay: every problem reported as `file:line:col: field: ...`,
exit status 2, no traceback, and nothing written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pnp.gamedef import game, games
from pnp.paths import CONTENT
from tests.conftest import invoke
from tests.conftest import overlay as content_folder

GAME = "spells-and-potions"
KINDS = tuple(sorted(game(GAME).load("kinds")))
BUNDLED = CONTENT / GAME


@pytest.fixture
def work(tmp_path, monkeypatch):
    """Run from tmp_path, so problem lines name overlay files by a short relative path."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def overlay(root: Path, **files: str) -> Path:
    """root/<game>/<name>.yaml for each keyword (underscores become dashes); returns root."""
    return content_folder(root, GAME, {f"{name.replace('_', '-')}.yaml": text for name, text in files.items()})


def shown(path: Path) -> str:
    """How a problem line names a file: relative to the working directory."""
    return os.path.relpath(path)


def locate(text: str, line_containing: str, value: str) -> tuple[int, int]:
    """1-based line and column of `value` on the one line of `text` containing `line_containing`."""
    hits = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line_containing in line]
    assert len(hits) == 1, f"{line_containing!r} is on {len(hits)} lines of the test YAML"
    n, line = hits[0]
    return n, line.index(value) + 1


def problem_lines(result) -> list[str]:
    lines = result.stderr.splitlines()
    assert lines and "problem" in lines[-1] and "nothing was written" in lines[-1], result.stderr
    return lines[:-1]


def line_at(lines: list[str], prefix: str) -> str:
    found = [line for line in lines if line.startswith(prefix)]
    assert len(found) == 1, f"expected one problem at {prefix!r}, got {found} in:\n" + "\n".join(lines)
    return found[0]


def assert_clean_failure(result) -> None:
    assert result.exit_code == 2, (result.exit_code, result.output, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def magic_cards(*cards: str) -> str:
    return "kind: magic-cards\ncards:\n" + "".join(cards)


def card(name: str, type_: str = "spell", count: int | str = 1, effect: str | None = "Does a thing.", **extra) -> str:
    text = f"  - name: {name}\n    type: {type_}\n    count: {count}\n"
    if effect is not None:
        text += f'    effect: "{effect}"\n'
    for key, value in extra.items():
        text += f"    {key}: {value}\n"
    return text


# --- several problems in one file ---------------------------------------------------------------

MANY = magic_cards(
    card("Amber Hex", count=12),
    card("Bramble Brew", "potion", count='"two"'),
    card("Cinder Ward", colour="red"),
    card("Dusk Draught", "potion", effect=None),
    card("Ember Curse", "curse"),
)


def test_every_problem_of_a_file_is_listed_with_file_line_col_field_and_expected_got(work):
    root = overlay(work / "ov", magic_cards=MANY)
    path = shown(root / GAME / "magic-cards.yaml")
    out = work / "out"
    result = invoke("build", GAME, "--content", str(root), "--out", str(out), "--backs", "none")
    assert_clean_failure(result)
    lines = problem_lines(result)

    line, col = locate(MANY, 'count: "two"', '"two"')
    count = line_at(lines, f"{path}:{line}:{col}: cards.1.count: ")
    assert count.endswith("cards.1.count: expected a whole number, got 'two'")

    line, col = locate(MANY, "colour: red", "colour")  # an unknown key: the key itself is the offender
    colour = line_at(lines, f"{path}:{line}:{col}: cards.2.colour: ")
    assert "unknown field" in colour and "expected" in colour and "got 'colour'" in colour

    line, col = locate(MANY, "name: Dusk Draught", "name")  # a missing field: at its card's mapping
    missing = line_at(lines, f"{path}:{line}:{col}: cards.3.effect: ")
    assert "missing" in missing and "expected a value" in missing and "got nothing" in missing

    line, col = locate(MANY, "type: curse", "curse")
    bad_type = line_at(lines, f"{path}:{line}:{col}: cards.4.type: ")
    assert bad_type.endswith("expected one of 'spell', 'counter-spell', 'potion', 'antidote', got 'curse'")

    # the good card is not mentioned; nothing was written, not even a temporary file
    assert not any("cards.0." in line for line in lines)
    assert not out.exists() or list(out.iterdir()) == []
    assert list(work.rglob("*.pdf")) == [] and list(work.rglob("*.tmp")) == []


def test_an_invalid_deck_file_is_not_also_reported_as_missing(work):
    """The magic-cards file exists but is invalid: its own four problems, not a fifth saying
    there is no magic-cards file at all (pointing at the bundled folder)."""
    root = overlay(work / "ov", magic_cards=MANY)
    result = invoke("check", GAME, "--content", str(root))
    assert_clean_failure(result)
    lines = problem_lines(result)
    assert not any("no magic-cards file" in line for line in lines), "\n".join(lines)
    assert result.stderr.splitlines()[-1] == "4 problems found; nothing was written."


def test_a_syntax_error_is_not_also_reported_as_a_missing_file(work):
    root = overlay(work / "ov", magic_cards="kind: magic-cards\ncards:\n  - name: A: B\n")
    result = invoke("check", GAME, "--content", str(root))
    assert_clean_failure(result)
    lines = problem_lines(result)
    assert not any("no magic-cards file" in line for line in lines), "\n".join(lines)
    assert len(lines) == 1


def test_a_failed_build_leaves_the_previous_pdf_untouched(work):
    out = work / "out"
    good = invoke("build", GAME, "--out", str(out), "--backs", "none")
    assert good.exit_code == 0, good.stderr
    pdf = out / f"{GAME}-a4-fronts.pdf"
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.iterdir()}
    assert pdf.name in before

    root = overlay(work / "ov", magic_cards=MANY)
    bad = invoke("build", GAME, "--content", str(root), "--out", str(out), "--backs", "none")
    assert_clean_failure(bad)
    assert "wrote" not in bad.output
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.iterdir()}
    assert after == before  # same files (no temporary left behind), same bytes, not rewritten


def test_a_real_process_reports_problems_without_a_traceback(work):
    root = overlay(work / "ov", magic_cards=MANY)
    pnp = Path(sys.executable).parent / "pnp"
    assert pnp.exists(), "the pnp console script is not installed in the venv"
    proc = subprocess.run(
        [str(pnp), "build", GAME, "--content", str(root), "--out", str(work / "out")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    path = shown(root / GAME / "magic-cards.yaml")
    line, col = locate(MANY, 'count: "two"', '"two"')
    assert f"{path}:{line}:{col}: cards.1.count:" in proc.stderr
    assert "nothing was written" in proc.stderr
    assert not (work / "out").exists()


# --- YAML itself --------------------------------------------------------------------------------


def test_yaml_syntax_error_names_file_line_and_column(work):
    text = "kind: magic-cards\ncards:\n  - name: Bad: Colon\n    type: spell\n"
    root = overlay(work / "ov", magic_cards=text)
    result = invoke("build", GAME, "--content", str(root), "--out", str(work / "out"))
    assert_clean_failure(result)
    line, col = locate(text, "Bad: Colon", ": Colon")  # "mapping values are not allowed here"
    problem = line_at(problem_lines(result), f"{shown(root / GAME / 'magic-cards.yaml')}:{line}:{col}: ")
    assert "YAML syntax" in problem
    assert not (work / "out").exists()


def test_duplicate_key_is_reported_at_the_second_key(work):
    text = magic_cards(card("First Name", count=12) + "    name: Second Name\n")
    root = overlay(work / "ov", magic_cards=text)
    result = invoke("check", GAME, "--content", str(root))
    assert_clean_failure(result)
    line, col = locate(text, "name: Second Name", "name")
    problem = line_at(problem_lines(result), f"{shown(root / GAME / 'magic-cards.yaml')}:{line}:{col}: cards.0.name: ")
    assert "duplicate key" in problem


def test_unknown_kind_lists_the_expected_kinds(work):
    text = "kind: magic-cardz\ncards: []\n"
    root = overlay(work / "ov", extra=text)
    result = invoke("check", GAME, "--content", str(root))
    assert_clean_failure(result)
    line, col = locate(text, "kind:", "magic-cardz")
    problem = line_at(problem_lines(result), f"{shown(root / GAME / 'extra.yaml')}:{line}:{col}: kind: ")
    assert "expected one of " + ", ".join(KINDS) in problem
    assert "got 'magic-cardz'" in problem


@pytest.mark.parametrize(
    "bundled, kind", [("elements.yaml", "element-suits"), ("game.yaml", "game"), ("score-pad.yaml", "score-pad")]
)
def test_a_second_file_of_a_non_deck_kind_is_an_error(work, bundled, kind):
    root = overlay(work / "ov", another=(BUNDLED / bundled).read_text(encoding="utf-8"))
    result = invoke("build", GAME, "--content", str(root), "--out", str(work / "out"))
    assert_clean_failure(result)
    problem = line_at(problem_lines(result), f"{shown(root / GAME / 'another.yaml')}:1:1: kind: ")
    assert f"{kind} is held once per game" in problem
    assert shown(BUNDLED / bundled) in problem  # both files are named
    assert not (work / "out").exists()


# --- the game's own rules -----------------------------------------------------------------------

ELEMENTS = (BUNDLED / "elements.yaml").read_text(encoding="utf-8")


def test_trump_must_name_a_suit(work):
    text = ELEMENTS.replace("trump: fire", "trump: ice")
    assert text != ELEMENTS
    root = overlay(work / "ov", elements=text)
    result = invoke("check", GAME, "--content", str(root))
    assert_clean_failure(result)
    line, col = locate(text, "trump: ice", "ice")
    problem = line_at(problem_lines(result), f"{shown(root / GAME / 'elements.yaml')}:{line}:{col}: trump: ")
    assert "expected a suit id (fire, earth, air, water)" in problem and "got 'ice'" in problem


def test_two_suits_may_not_share_a_letter(work):
    text = ELEMENTS.replace("letter: E", "letter: F")
    assert text != ELEMENTS
    root = overlay(work / "ov", elements=text)
    result = invoke("check", GAME, "--content", str(root))
    assert_clean_failure(result)
    # the second F (Earth's) is the offending one
    lines = text.splitlines()
    second = [n for n, l in enumerate(lines, 1) if l.strip() == "letter: F"][1]
    col = lines[second - 1].index("F") + 1
    problem = line_at(problem_lines(result), f"{shown(root / GAME / 'elements.yaml')}:{second}:{col}: suits.1.letter: ")
    assert "expected a letter no other suit has" in problem and "got 'F'" in problem


def test_too_few_spells_and_potions_cards(work):
    # 8 cards: too few for 3 in each of 4 hands, though 40 + 8 still deals evenly
    text = magic_cards(card("Lonely Hex", count=5), card("Quiet Brew", "potion", count=3))
    root = overlay(work / "ov", magic_cards=text)
    result = invoke("check", GAME, "--content", str(root))
    assert_clean_failure(result)
    lines = problem_lines(result)
    line, col = locate(text, "name: Lonely Hex", "-")  # the list of cards
    problem = line_at(lines, f"{shown(root / GAME / 'magic-cards.yaml')}:{line}:{col}: cards: ")
    assert "at least 12" in problem and problem.endswith("got 8")
    assert len(lines) == 1


# --- text that cannot be set --------------------------------------------------------------------

LONG = " ".join(["The wizard who plays this card must then recite the whole grimoire aloud."] * 25)


def test_text_too_long_to_fit_names_card_field_and_place(work):
    text = magic_cards(card("Short Hex", count=6), card("Endless Incantation", count=6, effect=LONG))
    root = overlay(work / "ov", magic_cards=text)
    result = invoke("check", GAME, "--content", str(root))
    assert_clean_failure(result)
    line, col = locate(text, 'effect: "The wizard', '"')
    problem = line_at(
        problem_lines(result), f"{shown(root / GAME / 'magic-cards.yaml')}:{line}:{col}: cards.1.effect: "
    )
    assert "Endless Incantation" in problem
    assert "does not fit" in problem and "expected" in problem and "got" in problem
    assert "ok " not in result.output

    out = work / "out"
    build = invoke("build", GAME, "--content", str(root), "--out", str(out), "--backs", "none")
    assert_clean_failure(build)
    assert not out.exists() or list(out.iterdir()) == []


@pytest.mark.slow
def test_text_too_long_in_an_added_file_points_into_that_file(work):
    """Card indexes count across files: the 15th magic card is the 3rd of extra-cards.yaml."""
    text = magic_cards(card("Pip Hex"), card("Pop Hex"), card("Verbose Brew", "potion", effect=LONG), card("Pup Hex"))
    root = overlay(work / "ov", extra_cards=text)
    result = invoke("check", GAME, "--content", str(root))
    assert_clean_failure(result)
    lines = problem_lines(result)
    line, col = locate(text, 'effect: "The wizard', '"')
    problem = line_at(lines, f"{shown(root / GAME / 'extra-cards.yaml')}:{line}:{col}: cards.2.effect: ")
    assert "Verbose Brew" in problem
    assert len(lines) == 1


def test_unknown_inline_icon_is_named(work):
    text = magic_cards(card("Odd Hex", count=12, effect="Play a :nosuch: card."))
    root = overlay(work / "ov", magic_cards=text)
    result = invoke("check", GAME, "--content", str(root))
    assert_clean_failure(result)
    line, col = locate(text, ":nosuch:", '"')
    problem = line_at(
        problem_lines(result), f"{shown(root / GAME / 'magic-cards.yaml')}:{line}:{col}: cards.0.effect: "
    )
    assert "(:nosuch: is not one)" in problem and "'Play a :nosuch: card.'" in problem
    assert "expected an icon from" in problem and "fire" in problem


# --- good content -------------------------------------------------------------------------------


@pytest.mark.slow
def test_check_on_good_content_is_ok(work):
    result = invoke("check")
    assert result.exit_code == 0, result.stderr
    lines = result.output.splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == [f"ok {game_id}" for game_id in games()]
    assert (
        lines[-1]
        == f"checked {len(games())} games: every text fitted, every page laid out on A4 and US Letter with every "
        "way of printing backs"
    )
    assert result.stderr == ""


def test_check_on_a_good_overlay_is_ok(work):
    root = overlay(work / "ov", extra_cards=magic_cards(*(card(f"Fine Hex {i}") for i in range(4))))
    result = invoke("check", GAME, "--content", str(root))
    assert result.exit_code == 0, result.stderr
    assert f"ok {GAME}" in result.output
